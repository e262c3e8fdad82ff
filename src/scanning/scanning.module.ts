import { Global, Module } from '@nestjs/common';
import { ClamdScanner } from './clamd-scanner';

/** The malware scanner, for the intake, the downloads, readiness and the job worker. */
@Global()
@Module({
  providers: [ClamdScanner],
  exports: [ClamdScanner],
})
export class ScanningModule {}
