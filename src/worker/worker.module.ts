import { Module } from '@nestjs/common';
import { HttpFetchModule } from '../http-fetch/http-fetch.module';
import { JobEvents } from '../jobs/job-events';
import { JobRunner } from '../jobs/job-runner';
import { JobSweeper } from '../jobs/job-sweeper';
import { JobsModule } from '../jobs/jobs.module';
import { AudioProcessor, ImageProcessor, VideoProcessor } from '../jobs/media.processors';
import { ToolRunner } from '../jobs/tool-runner';
import { MediaModule } from '../media/media.module';
import { UploadsModule } from '../uploads/uploads.module';
import { WebhookSender } from '../webhooks/webhook-sender';
import { WebhookSweeper } from '../webhooks/webhook-sweeper';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CreditsModule } from '../credits/credits.module';
import { ProcessedListener } from '../submissions/processed-listener';
import { SubmissionEvents } from '../submissions/submission-events';
import { RetentionModule } from '../retention/retention.module';

/**
 * The queue consumers. `npm run start:worker` runs them alone (as many copies as needed);
 * `npm start` also runs them in the API process unless WORKER_IN_PROCESS=false.
 */
@Module({
  imports: [HttpFetchModule, MediaModule, WebhooksModule, JobsModule, UploadsModule, CreditsModule, RetentionModule],
  providers: [ProcessedListener, SubmissionEvents, WebhookSender, WebhookSweeper, JobRunner, ToolRunner, JobEvents, JobSweeper, ImageProcessor, VideoProcessor, AudioProcessor],
  exports: [JobEvents],
})
export class WorkerModule {}
