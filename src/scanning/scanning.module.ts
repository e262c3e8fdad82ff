import { Module } from '@nestjs/common';
import { ClamdScanner } from './clamd-scanner';

/** The malware scanner, for the intake, the downloads, readiness and the job worker. */
@Module({
  providers: [ClamdScanner],
  exports: [ClamdScanner],
})
export class ScanningModule {}
