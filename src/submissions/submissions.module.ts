import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Drop } from '../drops/drop.entity';
import { DropsModule } from '../drops/drops.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { IntakeService } from './intake.service';
import { PublicDropsController } from './public-drops.controller';
import { SubmissionEvents } from './submission-events';
import { Submission } from './submission.entity';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Submission, Drop]), DropsModule, WebhooksModule],
  controllers: [SubmissionsController, PublicDropsController],
  providers: [SubmissionsService, IntakeService, SubmissionEvents],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
