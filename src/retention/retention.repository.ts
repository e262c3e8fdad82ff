import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type Db, rows } from '../database/sql';

/** Output retention per plan in milliseconds (RetentionPolicy). */
export interface OutputRetentionMs {
  free: number;
  pro: number;
  max: number;
}

/** A deployment's own jobs (`$prefix`, its queue prefix) and jobs from before they recorded one, as the job sweeper sees them. */
const OWN_JOBS = (param: string) => `(queue_prefix = ${param} OR queue_prefix IS NULL)`;

/**
 * The purges' SQL (docs/retention.md). Each statement touches at most `limit` rows found through
 * a partial index in its own order (bench/RESULTS.md has the plans), so a tick costs the same on a
 * table of 10 k rows or of 5 M.
 */
@Injectable()
export class RetentionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Gives up to `limit` outputs made since the last purge their expiry: finished_at plus their
   * account's plan's retention. An auto-conversion's output is its submission's processed file,
   * kept as long as the submission: never stamped.
   */
  async stampOutputs(prefix: string, retention: OutputRetentionMs, limit: number): Promise<number> {
    const result = await this.db.query(
      `UPDATE jobs j SET output_expires_at = j.finished_at + make_interval(secs => (CASE a.plan WHEN 'pro' THEN $2 WHEN 'max' THEN $3 ELSE $1 END)::float8 / 1000)
       FROM accounts a
       WHERE a.id = j.account_id AND j.id = ANY(ARRAY(
         SELECT id FROM jobs WHERE output_key IS NOT NULL AND output_expires_at IS NULL AND submission_id IS NULL AND ${OWN_JOBS('$5')}
         ORDER BY finished_at LIMIT $4))`,
      [retention.free, retention.pro, retention.max, limit, prefix],
    );
    return result[1] ?? 0;
  }

  /** Marks up to `limit` jobs' outputs expired at `now` (in the caller's transaction); the storage keys of all their outputs. */
  async expireOutputs(tx: Db, prefix: string, now: Date, limit: number): Promise<string[]> {
    const found = await rows<{ key: string; keys: Record<string, string> | null }>(
      tx,
      `UPDATE jobs SET output_expired_at = $1 WHERE id = ANY(ARRAY(
         SELECT id FROM jobs WHERE output_expires_at IS NOT NULL AND output_expired_at IS NULL AND output_expires_at <= $1 AND ${OWN_JOBS('$3')}
         ORDER BY output_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING output_key AS key, output_keys AS keys`,
      [now, limit, prefix],
    );
    return found.flatMap((r) => [r.key, ...Object.values(r.keys ?? {})]);
  }

  /**
   * Deletes up to `limit` job rows finished before `before` whose consequences were delivered
   * (in the caller's transaction); the output keys still live on them (an output kept longer than
   * the row) to delete with them. Auto-conversion outputs belong to their submission. A pipeline
   * job goes once its steps have (its files live on their rows: a cascade would not return them).
   */
  async deleteFinishedJobs(tx: Db, prefix: string, before: Date, limit: number): Promise<{ deleted: number; outputKeys: string[] }> {
    const found = await rows<{ key: string | null; keys: Record<string, string> | null }>(
      tx,
      `DELETE FROM jobs WHERE id = ANY(ARRAY(
         SELECT id FROM jobs WHERE state IN ('completed', 'failed', 'canceled') AND finished_at < $1 AND NOT consequences_pending AND ${OWN_JOBS('$3')}
           AND NOT EXISTS (SELECT 1 FROM jobs step WHERE step.pipeline_id = jobs.id)
         ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING CASE WHEN output_expired_at IS NULL AND submission_id IS NULL THEN output_key END AS key,
                 CASE WHEN output_expired_at IS NULL AND submission_id IS NULL THEN output_keys END AS keys`,
      [before, limit, prefix],
    );
    return { deleted: found.length, outputKeys: found.flatMap((r) => [r.key, ...Object.values(r.keys ?? {})]).filter((k): k is string => Boolean(k)) };
  }

  /** Deletes up to `limit` settled webhook deliveries created before `before`. */
  async deleteSettledDeliveries(before: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [before, limit],
    );
    return result[1] ?? 0;
  }

  /** Deletes up to `limit` idempotency records expired at `now` (a replay past expiry runs again anyway). */
  async deleteExpiredIdempotency(now: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM idempotency_records WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM idempotency_records WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [now, limit],
    );
    return result[1] ?? 0;
  }

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
