import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type Db, firstRow } from '../database/sql';

export interface IdempotencyRecord {
  requestHash: string;
  status: number;
  response: unknown;
}

/** The idempotency_records table: per API key and Idempotency-Key, the first accepted answer. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `work` holding the key's lock, a session advisory lock on one pooled connection: a twin
   * request waits inside Postgres until the holder's job is queued or withdrawn (no polling).
   * `work` gets that connection, so the holder's own transaction needs no second one.
   */
  async withKeyLock<T>(apiKeyId: string, key: string, work: (connection: EntityManager) => Promise<T>): Promise<T> {
    const lock = [`idempotency:${apiKeyId}:${key}`];
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', lock);
      try {
        return await work(runner.manager);
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', lock);
      }
    } finally {
      // A broken connection drops its session locks with it; the pool then replaces it.
      await runner.release();
    }
  }

  /** The live (unexpired) record, if any. */
  find(apiKeyId: string, key: string, now: Date, db: Db = this.db): Promise<IdempotencyRecord | undefined> {
    return firstRow<IdempotencyRecord>(
      db,
      'SELECT request_hash AS "requestHash", status_code AS status, response FROM idempotency_records WHERE api_key_id = $1 AND key = $2 AND expires_at > $3',
      [apiKeyId, key, now],
    );
  }

  /**
   * Claims the key inside the caller's transaction: true when this request now owns it (new, or
   * taking over an expired record). Under withKeyLock a twin cannot have claimed it meanwhile.
   */
  async claim(tx: Db, r: { apiKeyId: string; key: string; requestHash: string; status: number; response: unknown; now: Date; expiresAt: Date }): Promise<boolean> {
    const row = await firstRow(
      tx,
      `INSERT INTO idempotency_records (api_key_id, key, request_hash, status_code, response, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (api_key_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code, response = EXCLUDED.response,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= EXCLUDED.created_at
       RETURNING key`,
      [r.apiKeyId, r.key, r.requestHash, r.status, JSON.stringify(r.response), r.now, r.expiresAt],
    );
    return row !== undefined;
  }

  /** A recorded answer naming a job that no longer exists would replay it: removed with the job. */
  async deleteForJob(tx: Db, jobId: string): Promise<void> {
    await tx.query("DELETE FROM idempotency_records WHERE response->>'id' = $1", [jobId]);
  }

  /** Deletes up to `limit` records expired at `now` (a replay past expiry runs again anyway): the retention purge's batch. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM idempotency_records WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM idempotency_records WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [now, limit],
    );
    return result[1] ?? 0;
  }
}
