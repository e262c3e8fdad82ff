import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { IdempotencyService } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { JobQueue } from './job-queue';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [UploadsModule],
  controllers: [JobsController],
  providers: [JobsService, JobAdmission, JobQueue, IdempotencyService],
  exports: [JobsService, JobAdmission, JobQueue],
})
export class JobsModule {}
