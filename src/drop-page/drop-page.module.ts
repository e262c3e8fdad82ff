import { Module } from '@nestjs/common';
import { DropsModule } from '../drops/drops.module';
import { DropPageController } from './drop-page.controller';

/** The HTML upload page senders open from a drop's publicUrl. */
@Module({
  imports: [DropsModule],
  controllers: [DropPageController],
})
export class DropPageModule {}
