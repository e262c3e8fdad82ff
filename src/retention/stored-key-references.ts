import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { rows } from '../database/sql';

/**
 * Which stored keys the rows of every table still hold (jobs, uploads, submissions, their outputs,
 * pending deletions): storage reconciliation asks before it deletes a file no row names. Read-only:
 * the purges' writes belong to each table's repository (JobsRepository, IdempotencyRepository,
 * WebhookDeliveriesRepository, StorageTombstonesRepository).
 */
@Injectable()
export class StoredKeyReferences {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Of these stored keys, those a row still holds on to: a job's live output, an upload, a
   * submission's original or processed file or one of its template's outputs. Each lookup is an index probe.
   */
  async referenced(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const found = await rows<{ key: string }>(
      this.db,
      `SELECT output_key AS key FROM jobs WHERE output_key = ANY($1::text[]) AND output_key IS NOT NULL AND output_expired_at IS NULL
       UNION SELECT e.key FROM jobs, jsonb_each_text(output_keys) e(name, key)
         WHERE jsonb_path_query_array(output_keys, '$.*') ?| $1::text[] AND output_keys IS NOT NULL AND output_expired_at IS NULL AND e.key = ANY($1::text[])
       UNION SELECT storage_key FROM uploads WHERE storage_key = ANY($1::text[])
       UNION SELECT storage_key FROM submissions WHERE storage_key = ANY($1::text[])
       UNION SELECT processed_key FROM submissions WHERE processed_key = ANY($1::text[]) AND processed_key IS NOT NULL
       UNION SELECT storage_key FROM submission_outputs WHERE storage_key = ANY($1::text[])
       UNION SELECT storage_key FROM pending_file_deletions WHERE storage_key = ANY($1::text[])`,
      [keys],
    );
    return new Set(found.map((r) => r.key));
  }

  /**
   * Up to `limit` stored keys rows reference, after `afterKey` in key order (one page of the walk
   * that finds rows whose file is missing): submissions' files (their template outputs too), uploads, live job outputs. A job's
   * further outputs (`output_keys`) are read from the live multi-output jobs alone (a partial index),
   * a set bounded by output retention.
   */
  async referencedKeysAfter(afterKey: string, limit: number): Promise<string[]> {
    const found = await rows<{ key: string }>(
      this.db,
      `SELECT key FROM (
         (SELECT storage_key AS key FROM submissions WHERE storage_key > $1 ORDER BY storage_key LIMIT $2)
         UNION (SELECT processed_key FROM submissions WHERE processed_key IS NOT NULL AND processed_key > $1 ORDER BY processed_key LIMIT $2)
         UNION (SELECT storage_key FROM submission_outputs WHERE storage_key > $1 ORDER BY storage_key LIMIT $2)
         UNION (SELECT storage_key FROM uploads WHERE storage_key > $1 ORDER BY storage_key LIMIT $2)
         UNION (SELECT output_key FROM jobs WHERE output_key IS NOT NULL AND output_key > $1 AND output_expired_at IS NULL ORDER BY output_key LIMIT $2)
         UNION (SELECT e.key FROM jobs, jsonb_each_text(output_keys) e(name, key)
                WHERE output_keys IS NOT NULL AND output_expired_at IS NULL AND e.key > $1 ORDER BY e.key LIMIT $2)
       ) k ORDER BY key LIMIT $2`,
      [afterKey, limit],
    );
    return found.map((r) => r.key);
  }
}
