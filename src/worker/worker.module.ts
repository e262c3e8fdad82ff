import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { DropsModule } from '../drops/drops.module';
import { SubmissionsModule } from '../submissions/submissions.module';
import { HttpFetchModule } from '../http-fetch/http-fetch.module';
import { JobsModule } from '../jobs/jobs.module';
import { JobsWorkerModule } from '../jobs/jobs-worker.module';
import { ProcessedListener } from '../submissions/processed-listener';
import { SubmissionEvents } from '../submissions/submission-events';
import { SendShares } from '../webhooks/send-shares';
import { WebhookSender } from '../webhooks/webhook-sender';
import { WebhookSweeper } from '../webhooks/webhook-sweeper';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { RetentionModule } from '../retention/retention.module';
import { ExclusiveSweepsModule } from '../sweeps/sweeps.module';

/**
 * The queue consumers. `npm run start:worker` runs them alone (as many copies as needed);
 * `npm start` also runs them in the API process unless WORKER_IN_PROCESS=false. The jobs domain's
 * worker side comes whole from JobsWorkerModule; a drop's auto-conversion hears of its job's end
 * through the JobFinished event (ProcessedListener).
 */
@Module({
  imports: [JobsWorkerModule, JobsModule, WebhooksModule, HttpFetchModule, AccountsModule, DropsModule, SubmissionsModule, RetentionModule, ExclusiveSweepsModule],
  providers: [ProcessedListener, SubmissionEvents, WebhookSender, SendShares, WebhookSweeper],
})
export class WorkerModule {}
