import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { AutoConvertService } from './auto-convert.service';
import { DropsModule } from '../drops/drops.module';
import { TemplatesModule } from '../templates/templates.module';
import { ScanningModule } from '../scanning/scanning.module';
import { ToolsModule } from '../tools/tools.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { IntakeService } from './intake.service';
import { PublicDropsController } from './public-drops.controller';
import { SubmissionEvents } from './submission-events';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsRepository } from './submissions.repository';
import { SubmissionsService } from './submissions.service';
import { SubmissionsArchiveController } from './submissions-archive.controller';
import { SubmissionsArchiveService } from './submissions-archive.service';
import { UploadSlots } from './upload-slots';
import { ScanRepository } from './scan.repository';
import { SubmissionScans } from './submission-scans';
import { SubmissionQuarantine } from './submission-quarantine';

@Module({
  // ToolsModule: the template a drop runs is planned as a job's (processWith).
  imports: [DropsModule, WebhooksModule, JobsModule, TemplatesModule, ToolsModule, ScanningModule],
  controllers: [SubmissionsArchiveController, SubmissionsController, PublicDropsController],
  providers: [
    SubmissionsRepository,
    SubmissionsService,
    SubmissionsArchiveService,
    IntakeService,
    SubmissionEvents,
    AutoConvertService,
    UploadSlots,
    ScanRepository,
    SubmissionScans,
    SubmissionQuarantine,
  ],
  exports: [SubmissionsRepository, SubmissionsService, SubmissionEvents, IntakeService, UploadSlots],
})
export class SubmissionsModule {}
