import { Module } from '@nestjs/common';
import { DropsModule } from '../drops/drops.module';
import { DropPageAssetsController } from './drop-page-assets.controller';
import { DropPageController } from './drop-page.controller';

/** The HTML upload page senders open from a drop's publicUrl. */
@Module({
  imports: [DropsModule],
  controllers: [DropPageAssetsController, DropPageController],
})
export class DropPageModule {}
