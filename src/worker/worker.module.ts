import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from '../accounts/account.entity';
import { HttpFetchModule } from '../http-fetch/http-fetch.module';
import { JobEvents } from '../jobs/job-events';
import { JobRunner } from '../jobs/job-runner';
import { JobSweeper } from '../jobs/job-sweeper';
import { Job } from '../jobs/job.entity';
import { JobsModule } from '../jobs/jobs.module';
import { AudioProcessor, ImageProcessor, VideoProcessor } from '../jobs/media.processors';
import { ToolRunner } from '../jobs/tool-runner';
import { MediaModule } from '../media/media.module';
import { Upload } from '../uploads/upload.entity';
import { UploadsModule } from '../uploads/uploads.module';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { WebhookSender } from '../webhooks/webhook-sender';
import { WebhookSweeper } from '../webhooks/webhook-sweeper';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CreditsModule } from '../credits/credits.module';
import { Drop } from '../drops/drop.entity';
import { ProcessedListener } from '../submissions/processed-listener';
import { Submission } from '../submissions/submission.entity';

/**
 * The queue consumers. `npm run start:worker` runs them alone (as many copies as needed);
 * `npm start` also runs them in the API process unless WORKER_IN_PROCESS=false.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookDelivery, Account, Job, Upload, Submission, Drop]),
    HttpFetchModule,
    MediaModule,
    WebhooksModule,
    JobsModule,
    UploadsModule,
    CreditsModule,
  ],
  providers: [ProcessedListener, WebhookSender, WebhookSweeper, JobRunner, ToolRunner, JobEvents, JobSweeper, ImageProcessor, VideoProcessor, AudioProcessor],
  exports: [JobEvents],
})
export class WorkerModule {}
