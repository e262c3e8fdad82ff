import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { Db } from '../database/sql';
import { PendingFileDeletionsRepository } from './pending-file-deletions.repository';
import { STORAGE, type StorageDriver } from './storage.driver';

/**
 * Deleting stored files whose rows are being deleted, without ever losing track of one:
 * `record` in the rows' transaction, `removeNow` after it commits. What `removeNow` could not
 * delete stays recorded and the retention purge retries it (RetentionPurge).
 */
@Injectable()
export class FileDeletions {
  private readonly logger = new Logger(FileDeletions.name);

  constructor(
    private readonly pending: PendingFileDeletionsRepository,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly clock: Clock,
  ) {}

  record(tx: Db, keys: (string | null | undefined)[]): Promise<void> {
    return this.pending.record(tx, present(keys), this.clock.now());
  }

  /** Deletes the files and their records; on a storage failure they stay recorded (logged, retried later). True when all went. */
  async removeNow(keys: (string | null | undefined)[]): Promise<boolean> {
    const all = present(keys);
    for (let i = 0; i < all.length; i += 500) {
      const batch = all.slice(i, i + 500);
      try {
        await this.storage.deleteMany(batch);
        await this.pending.done(batch);
      } catch (err) {
        const message = (err as Error).message;
        this.logger.warn(`Could not delete ${all.length - i} stored files yet (retried by the purge): ${message}`);
        await this.pending.failed(all.slice(i), message).catch(() => undefined);
        return false;
      }
    }
    return true;
  }
}

function present(keys: (string | null | undefined)[]): string[] {
  return [...new Set(keys.filter((k): k is string => Boolean(k)))];
}
