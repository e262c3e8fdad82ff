import { Module } from '@nestjs/common';
import { ExclusiveSweepsModule } from '../sweeps/sweeps.module';
import { RetentionPurge } from './retention-purge';
import { RetentionRepository } from './retention.repository';
import { StorageReconciliation } from './storage-reconciliation';

/** Retention and storage reconciliation (docs/retention.md); runs where the workers run. */
@Module({
  imports: [ExclusiveSweepsModule],
  providers: [RetentionRepository, RetentionPurge, StorageReconciliation],
  exports: [RetentionPurge, StorageReconciliation],
})
export class RetentionModule {}
