import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from '../accounts/account.entity';
import { Drop } from '../drops/drop.entity';
import { JobsModule } from '../jobs/jobs.module';
import { AutoConvertService } from './auto-convert.service';
import { DropsModule } from '../drops/drops.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { IntakeService } from './intake.service';
import { PublicDropsController } from './public-drops.controller';
import { SubmissionEvents } from './submission-events';
import { Submission } from './submission.entity';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Submission, Drop, Account]), DropsModule, WebhooksModule, JobsModule],
  controllers: [SubmissionsController, PublicDropsController],
  providers: [SubmissionsService, IntakeService, SubmissionEvents, AutoConvertService],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
