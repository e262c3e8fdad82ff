import { Module } from '@nestjs/common';
import { DropCache } from './drop-cache';
import { DropsController } from './drops.controller';
import { DropsRepository } from './drops.repository';
import { DropsService } from './drops.service';

@Module({
  controllers: [DropsController],
  providers: [DropsRepository, DropsService, DropCache],
  exports: [DropsRepository, DropsService],
})
export class DropsModule {}
