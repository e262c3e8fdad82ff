import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { HttpFetchModule } from '../http-fetch/http-fetch.module';
import { MediaModule } from '../media/media.module';
import { ScanningModule } from '../scanning/scanning.module';
import { ExclusiveSweepsModule } from '../sweeps/sweeps.module';
import { UploadsModule } from '../uploads/uploads.module';
import { JobsModule } from './jobs.module';
import { MEDIA_PROCESSORS } from './media.processors';
import { ToolRunner } from './tool-runner';
import { ReconcileJobs } from './use-cases/reconcile-jobs';
import { RunJob } from './use-cases/run-job';
import { RunDirs } from './run-dirs';

/** The jobs domain's worker side: the queue consumers, the run use case and the reconcile sweep, over JobsModule. */
@Module({
  imports: [JobsModule, AccountsModule, HttpFetchModule, MediaModule, UploadsModule, ScanningModule, ExclusiveSweepsModule],
  providers: [RunJob, RunDirs, ToolRunner, ReconcileJobs, ...MEDIA_PROCESSORS],
})
export class JobsWorkerModule {}
