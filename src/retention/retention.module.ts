import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { ExclusiveSweepsModule } from '../sweeps/sweeps.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { RetentionPurge } from './retention-purge';
import { StorageReconciliation } from './storage-reconciliation';
import { StoredKeyReferences } from './stored-key-references';

/**
 * Retention and storage reconciliation (docs/retention.md); runs where the workers run. The purge
 * writes through each table's own repository (jobs, idempotency records, webhook deliveries).
 */
@Module({
  imports: [ExclusiveSweepsModule, JobsModule, WebhooksModule],
  providers: [StoredKeyReferences, RetentionPurge, StorageReconciliation],
  exports: [RetentionPurge, StorageReconciliation],
})
export class RetentionModule {}
