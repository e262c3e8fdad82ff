import { Module } from '@nestjs/common';
import { RetentionPurge } from './retention-purge';
import { StorageReconciliation } from './storage-reconciliation';

/** Retention and storage reconciliation (docs/retention.md); runs where the workers run. */
@Module({ providers: [RetentionPurge, StorageReconciliation], exports: [RetentionPurge, StorageReconciliation] })
export class RetentionModule {}
