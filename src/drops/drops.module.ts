import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Drop } from './drop.entity';
import { DropsController } from './drops.controller';
import { DropsService } from './drops.service';

@Module({
  imports: [TypeOrmModule.forFeature([Drop])],
  controllers: [DropsController],
  providers: [DropsService],
  exports: [DropsService],
})
export class DropsModule {}
