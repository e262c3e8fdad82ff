import { Module } from '@nestjs/common';
import { TemplatesModule } from '../templates/templates.module';
import { DropCache } from './drop-cache';
import { DropGate } from './drop-gate';
import { DropsController } from './drops.controller';
import { DropsRepository } from './drops.repository';
import { DropsService } from './drops.service';

@Module({
  imports: [TemplatesModule],
  controllers: [DropsController],
  providers: [DropsRepository, DropsService, DropCache, DropGate],
  exports: [DropsRepository, DropsService, DropGate],
})
export class DropsModule {}
