import { Module } from '@nestjs/common';
import { TemplatesModule } from '../templates/templates.module';
import { ToolsModule } from '../tools/tools.module';
import { JobViewer } from './job-viewer';
import { PipelinesRepository } from './pipelines.repository';
import { AdvancePipeline } from './use-cases/advance-pipeline';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AccountsModule } from '../accounts/accounts.module';
import { CreditsModule } from '../credits/credits.module';
import { UploadsModule } from '../uploads/uploads.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { JobDispatch } from './job-dispatch';
import { JobInputs } from './job-inputs';
import { JobQueue } from './job-queue';
import { JobRefunds } from './job-refunds';
import { JobWaits } from './job-waits';
import { JobsController } from './jobs.controller';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { CancelJob } from './use-cases/cancel-job';
import { SettleJob } from './use-cases/settle-job';
import { SubmitJob } from './use-cases/submit-job';
import { QuoteJob } from './use-cases/quote-job';
import { JobRunTimes } from './job-run-times';

/**
 * The jobs API and the lifecycle both processes share. Exports what others use: admission and
 * dispatch (a drop's auto-conversion), settling (the worker's use cases, JobsWorkerModule).
 * A job's end is published as a JobFinished event (EventEmitterModule, global).
 */
@Module({
  imports: [AccountsModule, CreditsModule, UploadsModule, WebhooksModule, TemplatesModule, ToolsModule, EventEmitterModule.forRoot()],
  controllers: [JobsController],
  providers: [
    JobsRepository,
    IdempotencyRepository,
    JobsService,
    IdempotencyService,
    JobAdmission,
    JobDispatch,
    JobInputs,
    JobQueue,
    JobRefunds,
    JobWaits,
    SubmitJob,
    QuoteJob,
    JobRunTimes,
    CancelJob,
    SettleJob,
    AdvancePipeline,
    PipelinesRepository,
    JobViewer,
  ],
  exports: [JobsRepository, PipelinesRepository, IdempotencyRepository, JobsService, JobAdmission, JobDispatch, JobQueue, SettleJob],
})
export class JobsModule {}
