import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Thrown inside the admission transaction when a concurrent twin committed first: roll back, replay. */
export class IdempotentTwinCommitted extends Error {}

/**
 * Idempotency keys of POST /v1/jobs (spec part 8), per API key, 24 h. A replay returns the
 * stored status and body; the same key with another body is 409 idempotency_conflict. Only
 * accepted jobs are recorded: a refused request (402, 429, …) may be retried with the same key.
 * The record is written in the job's own transaction, so exactly one of N concurrent twins wins.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  fingerprint(body: Record<string, unknown>): string {
    const { idempotencyKey: _ignored, ...rest } = body;
    return createHash('sha256').update(canonicalJson(rest)).digest('hex');
  }

  /** The stored response for a replay, undefined when the key is free (expired records are dropped). */
  async lookup(apiKeyId: string, key: string, hash: string): Promise<StoredResponse | undefined> {
    const now = this.clock.now();
    await this.db.query('DELETE FROM idempotency_records WHERE api_key_id = $1 AND key = $2 AND expires_at <= $3', [apiKeyId, key, now]);
    const rows = await this.db.query('SELECT request_hash, status_code, response FROM idempotency_records WHERE api_key_id = $1 AND key = $2', [apiKeyId, key]);
    if (rows.length === 0) return undefined;
    if (rows[0].request_hash !== hash) {
      throw new ApiError(HttpStatus.CONFLICT, 'idempotency_conflict', 'This Idempotency-Key was used with a different request body in the last 24 hours.');
    }
    return { status: rows[0].status_code, body: rows[0].response };
  }

  /** Inside the admission transaction; waits on a concurrent twin's row and loses to it if it commits. */
  async record(tx: EntityManager, apiKeyId: string, key: string, hash: string, response: StoredResponse): Promise<void> {
    const now = this.clock.now();
    const [rows] = await tx.query(
      `INSERT INTO idempotency_records (api_key_id, key, request_hash, status_code, response, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING key`,
      [apiKeyId, key, hash, response.status, JSON.stringify(response.body), now, new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS)],
    ).then((r: unknown) => [r as unknown[]]);
    if (rows.length === 0) throw new IdempotentTwinCommitted();
  }
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
