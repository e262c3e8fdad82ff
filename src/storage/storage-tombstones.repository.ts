import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type Db, firstRow } from '../database/sql';

/**
 * Why a stored file is gone on purpose: `output_expired` (retention removed it; a signed URL to it
 * answers 410) or `quarantined` (the malware scan found it infected and it was moved out of reach; 403).
 */
export type TombstoneReason = 'output_expired' | 'quarantined';

/**
 * The storage_tombstones table: files removed by retention or quarantined, remembered as long as a
 * signed URL to them can still be valid (7 days), so such a URL says why rather than 404.
 */
@Injectable()
export class StorageTombstonesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(tx: Db, keys: string[], reason: TombstoneReason, at: Date): Promise<void> {
    if (keys.length === 0) return;
    await tx.query('INSERT INTO storage_tombstones (storage_key, reason, purged_at) SELECT k, $2, $3 FROM unnest($1::text[]) k ON CONFLICT (storage_key) DO NOTHING', [
      keys,
      reason,
      at,
    ]);
  }

  async find(key: string): Promise<{ reason: TombstoneReason; purgedAt: Date } | undefined> {
    return firstRow(this.db, 'SELECT reason, purged_at AS "purgedAt" FROM storage_tombstones WHERE storage_key = $1', [key]);
  }

  /** Forgets up to `limit` tombstones older than `before` (no URL signed before them is still valid). */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      'DELETE FROM storage_tombstones WHERE storage_key = ANY(ARRAY(SELECT storage_key FROM storage_tombstones WHERE purged_at < $1 ORDER BY purged_at LIMIT $2))',
      [before, limit],
    );
    return result[1] ?? 0;
  }
}
