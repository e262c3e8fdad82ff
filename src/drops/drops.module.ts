import { Module } from '@nestjs/common';
import { DropCache } from './drop-cache';
import { DropsController } from './drops.controller';
import { DropsService } from './drops.service';

@Module({
  controllers: [DropsController],
  providers: [DropsService, DropCache],
  exports: [DropsService],
})
export class DropsModule {}
