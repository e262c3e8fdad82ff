import { Module } from '@nestjs/common';
import { DropCache } from './drop-cache';
import { DropGate } from './drop-gate';
import { DropsController } from './drops.controller';
import { DropsService } from './drops.service';

@Module({
  controllers: [DropsController],
  providers: [DropsService, DropCache, DropGate],
  exports: [DropsService, DropGate],
})
export class DropsModule {}
