import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { UploadsModule } from '../uploads/uploads.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { JobQueue } from './job-queue';
import { JobsController } from './jobs.controller';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

@Module({
  imports: [AccountsModule, UploadsModule],
  controllers: [JobsController],
  providers: [JobsRepository, IdempotencyRepository, JobsService, JobAdmission, JobQueue, IdempotencyService],
  exports: [JobsRepository, JobsService, JobAdmission, JobQueue],
})
export class JobsModule {}
