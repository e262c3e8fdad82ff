import { Global, Module } from '@nestjs/common';
import { ExclusiveSweeps } from './exclusive-sweeps';
import { RetentionPurge } from './retention-purge';
import { RetentionRepository } from './retention.repository';
import { StorageReconciliation } from './storage-reconciliation';

/** Retention and storage reconciliation (docs/retention.md); runs where the workers run. */
@Module({ providers: [RetentionRepository, RetentionPurge, StorageReconciliation], exports: [RetentionPurge, StorageReconciliation] })
export class RetentionModule {}

/**
 * One process per deployment for each background sweep (a Postgres advisory lock), for every
 * module that sweeps: the job and webhook sweepers in workers, the tus sweep in API processes.
 */
@Global()
@Module({ providers: [ExclusiveSweeps], exports: [ExclusiveSweeps] })
export class ExclusiveSweepsModule {}
