import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import ms from 'ms';
import { missingFiles, purgedTotal } from '../metrics/dropline-metrics';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { ExclusiveSweeps } from '../sweeps/exclusive-sweeps';
import { StoredKeyReferences } from './stored-key-references';

/**
 * A stored file written less than this long ago may belong to a row not committed yet (every
 * writer stores the file first, then inserts its row): never an orphan. Compared with the files'
 * own write times, so wall time, not the Clock.
 */
export const ORPHAN_MIN_AGE_MS = ms('1d');
const RECONCILE_EVERY_MS = ms('1d');
/** Keys checked against the database per query. */
const BATCH = 500;
/** Existence checks in flight at once while looking for missing files. */
const CHECKS_AT_ONCE = 16;

export interface ReconciliationReport {
  /** Stored files no row references, older than ORPHAN_MIN_AGE_MS: deleted. */
  orphansDeleted: number;
  /** Keys rows reference whose file does not exist: reported (logged, metric), never touched. */
  missing: string[];
}

/**
 * Storage and database agree: once a day, in one process per deployment, a walk of the store
 * deletes files that no row references (older than a day), and a walk of the referencing rows
 * reports those whose file is gone. A referenced file is never deleted: each batch of listed keys
 * is checked against the database after it was listed, and young files are never candidates.
 */
@Injectable()
export class StorageReconciliation implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StorageReconciliation.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly references: StoredKeyReferences,
    private readonly sweeps: ExclusiveSweeps,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass; undefined when another process of the deployment is running it. */
  reconcile(): Promise<ReconciliationReport | undefined> {
    const run = (this.running ??= this.sweeps
      .run('storage-reconciliation', () => this.pass())
      .catch((err: Error) => {
        this.logger.warn(`Storage reconciliation failed: ${err.message}`);
        return undefined;
      })
      .finally(() => (this.running = undefined)));
    return run as Promise<ReconciliationReport | undefined>;
  }

  private async pass(): Promise<ReconciliationReport> {
    const orphansDeleted = await this.deleteOrphans();
    const missing = await this.findMissing();
    missingFiles.set(missing.length);
    if (orphansDeleted > 0) this.logger.warn(`Deleted ${orphansDeleted} stored files no row referenced`);
    if (missing.length > 0) this.logger.error(`${missing.length} rows reference a stored file that does not exist: ${missing.slice(0, 20).join(', ')}`);
    return { orphansDeleted, missing };
  }

  private async deleteOrphans(): Promise<number> {
    const cutoff = Date.now() - ORPHAN_MIN_AGE_MS;
    let deleted = 0;
    let batch: string[] = [];
    const flush = async () => {
      // Checked after listing: a row committed while the walk ran is seen here.
      const referenced = await this.references.referenced(batch);
      const orphans = batch.filter((key) => !referenced.has(key));
      batch = [];
      if (orphans.length === 0) return;
      await this.storage.deleteMany(orphans);
      purgedTotal.inc({ kind: 'orphan_file' }, orphans.length);
      deleted += orphans.length;
    };
    for await (const object of this.storage.list()) {
      if (object.modifiedAt.getTime() >= cutoff) continue;
      batch.push(object.key);
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return deleted;
  }

  private async findMissing(): Promise<string[]> {
    const missing: string[] = [];
    let after = '';
    for (;;) {
      const keys = await this.references.referencedKeysAfter(after, BATCH);
      for (let i = 0; i < keys.length; i += CHECKS_AT_ONCE) {
        const slice = keys.slice(i, i + CHECKS_AT_ONCE);
        const present = await Promise.all(slice.map((key) => this.storage.exists(key)));
        slice.forEach((key, j) => !present[j] && missing.push(key));
      }
      if (keys.length < BATCH) return missing;
      after = keys[keys.length - 1];
    }
  }
}
