import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Upload } from '../uploads/upload.entity';
import { Clock } from '../common/clock';
import { IdempotencyService } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { JobQueue } from './job-queue';
import { Job } from './job.entity';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [TypeOrmModule.forFeature([Job, Upload])],
  controllers: [JobsController],
  providers: [JobsService, JobAdmission, JobQueue, IdempotencyService, Clock],
  exports: [JobsService, JobAdmission, JobQueue, Clock],
})
export class JobsModule {}
