import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Db, firstRow, rows } from '../database/sql';
import type { ScanStatus } from './submission.entity';

export interface ScanTarget {
  id: string;
  dropId: string;
  storageKey: string;
}

/** The scan columns of `submissions` (migration 1764200000300). */
@Injectable()
export class ScanRepository {
  constructor(private readonly db: DataSource) {}

  /** Takes a pending submission for a scan now; undefined when it is scanned already or gone. */
  claim(id: string): Promise<ScanTarget | undefined> {
    return firstRow<ScanTarget>(
      this.db.manager,
      `UPDATE submissions SET scan_attempted_at = now() WHERE id = $1 AND scan_status = 'pending'
       RETURNING id, drop_id AS "dropId", storage_key AS "storageKey"`,
      [id],
    );
  }

  /**
   * Pending submissions not tried in the last `retrySeconds` (the scanner was down, or the process
   * that took them died), oldest attempt first, each taken by one process (SKIP LOCKED).
   */
  claimDue(retrySeconds: number, limit: number): Promise<ScanTarget[]> {
    return rows<ScanTarget>(
      this.db.manager,
      `UPDATE submissions SET scan_attempted_at = now()
       WHERE id IN (
         SELECT id FROM submissions
         WHERE scan_status = 'pending' AND (scan_attempted_at IS NULL OR scan_attempted_at < now() - make_interval(secs => $1))
         ORDER BY scan_attempted_at NULLS FIRST LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, drop_id AS "dropId", storage_key AS "storageKey"`,
      [retrySeconds, limit],
    );
  }

  /** The submission's stored files not yet moved to quarantine (`prefix`): the original, the processed file, the template's outputs. */
  async unhiddenKeys(id: string, prefix: string): Promise<string[]> {
    const found = await rows<{ key: string | null }>(
      this.db.manager,
      `SELECT storage_key AS key FROM submissions WHERE id = $1
       UNION ALL SELECT processed_key FROM submissions WHERE id = $1
       UNION ALL SELECT storage_key FROM submission_outputs WHERE submission_id = $1`,
      [id],
    );
    return found.map((r) => r.key).filter((k): k is string => k !== null && !k.startsWith(prefix));
  }

  /** Points the submission's rows at the quarantined copies (`prefix` + key) of `keys`, in the caller's transaction. */
  async renameKeys(tx: Db, id: string, keys: string[], prefix: string): Promise<void> {
    await tx.query(
      `UPDATE submissions SET
         storage_key = CASE WHEN storage_key = ANY($2::text[]) THEN $3 || storage_key ELSE storage_key END,
         processed_key = CASE WHEN processed_key = ANY($2::text[]) THEN $3 || processed_key ELSE processed_key END
       WHERE id = $1`,
      [id, keys, prefix],
    );
    await tx.query('UPDATE submission_outputs SET storage_key = $3 || storage_key WHERE submission_id = $1 AND storage_key = ANY($2::text[])', [id, keys, prefix]);
  }

  /** Records the verdict once: false when another scan of the same file recorded it first. */
  async settle(id: string, status: Exclude<ScanStatus, 'pending' | 'unscanned'>, signature: string | null, tx: Db = this.db.manager): Promise<boolean> {
    const row = await firstRow(tx, `UPDATE submissions SET scan_status = $2, scan_signature = $3, scanned_at = now() WHERE id = $1 AND scan_status = 'pending' RETURNING id`, [
      id,
      status,
      signature,
    ]);
    return row !== undefined;
  }
}
