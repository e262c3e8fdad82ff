import { Module } from '@nestjs/common';
import { TemplatesModule } from '../templates/templates.module';
import { DropCache } from './drop-cache';
import { DropGate } from './drop-gate';
import { DropsController } from './drops.controller';
import { DropEventsRepository } from './drop-events.repository';
import { DropsRepository } from './drops.repository';
import { DropsService } from './drops.service';

@Module({
  imports: [TemplatesModule],
  controllers: [DropsController],
  providers: [DropsRepository, DropEventsRepository, DropsService, DropCache, DropGate],
  // DropEventsRepository: submissions record their events in their own transactions.
  exports: [DropsRepository, DropEventsRepository, DropsService, DropGate],
})
export class DropsModule {}
