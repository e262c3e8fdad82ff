import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type Db, rows } from '../database/sql';

/**
 * The pending_file_deletions table: stored files whose rows are gone, written in the transaction
 * that removed the rows. A key leaves the table only once its file is deleted, so a storage
 * failure after the commit (S3 down, a crash) is retried by the purge instead of leaking the file.
 */
@Injectable()
export class PendingFileDeletionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(tx: Db, keys: string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    await tx.query('INSERT INTO pending_file_deletions (storage_key, created_at) SELECT k, $2 FROM unnest($1::text[]) k ON CONFLICT (storage_key) DO NOTHING', [keys, at]);
  }

  async done(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.db.query('DELETE FROM pending_file_deletions WHERE storage_key = ANY($1::text[])', [keys]);
  }

  async failed(keys: string[], error: string): Promise<void> {
    if (keys.length === 0) return;
    await this.db.query('UPDATE pending_file_deletions SET attempts = attempts + 1, last_error = $2 WHERE storage_key = ANY($1::text[])', [keys, error.slice(0, 500)]);
  }

  /** Up to `limit` keys recorded before `before`, oldest first: the ones the inline deletion did not finish. */
  async due(before: Date, limit: number): Promise<string[]> {
    const found = await rows<{ key: string }>(this.db, 'SELECT storage_key AS key FROM pending_file_deletions WHERE created_at < $1 ORDER BY created_at LIMIT $2', [before, limit]);
    return found.map((r) => r.key);
  }
}
