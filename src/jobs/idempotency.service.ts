import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { MAX_JSON_DEPTH, tooDeep } from '../common/json-depth';
import type { Db } from '../database/sql';
import { IdempotencyRepository } from './idempotency.repository';
import { DomainError } from '../common/domain-error';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** An Idempotency-Key and the fingerprint of the body it came with. */
export interface IdempotentRequest {
  key: string;
  hash: string;
}

/**
 * Idempotency keys of POST /v1/jobs (docs/decisions.md §7), per API key, 24 h. A replay returns the
 * stored status and body; the same key with another body is 409 idempotency_conflict. Only
 * accepted jobs are recorded: a refused request (402, 429, …) may be retried with the same key.
 * A request with a key runs under the key's lock (`exclusively`) from its one check of the record
 * to its job's enqueue; the record is written in the job's own transaction (JobAdmission). So of N
 * concurrent twins exactly one is admitted, and the others, waiting on the lock, replay its answer
 * once its job is queued — or are admitted themselves if its enqueue failed and withdrew it.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly records: IdempotencyRepository) {}

  /** The key of a request (the body's `idempotencyKey` wins over the header), or undefined. */
  request(body: Record<string, unknown>, header: string | undefined): IdempotentRequest | undefined {
    const key = typeof body.idempotencyKey === 'string' ? body.idempotencyKey : header;
    if (!key) return undefined;
    const { idempotencyKey: _ignored, ...rest } = body;
    return { key, hash: createHash('sha256').update(canonicalJson(rest)).digest('hex') };
  }

  /** Runs `work` as the only request holding this key (see IdempotencyRepository.withKeyLock). */
  exclusively<T>(apiKeyId: string, request: IdempotentRequest, work: (connection: EntityManager) => Promise<T>): Promise<T> {
    return this.records.withKeyLock(apiKeyId, request.key, work);
  }

  /** The stored response for a replay, undefined when the key is free at `now`; `idempotency_conflict` when it was used with another body. */
  async replay(apiKeyId: string, request: IdempotentRequest, now: Date, db?: Db): Promise<StoredResponse | undefined> {
    const record = await this.records.find(apiKeyId, request.key, now, db);
    if (!record) return undefined;
    if (record.requestHash !== request.hash) {
      throw new DomainError('idempotency_conflict', 'This Idempotency-Key was used with a different request body in the last 24 hours.');
    }
    return { status: record.status, body: record.response };
  }

  /** Records the answer inside the admission transaction; false if a twin holds the key (cannot happen under the key's lock). */
  record(tx: Db, apiKeyId: string, request: IdempotentRequest, response: StoredResponse, now: Date): Promise<boolean> {
    return this.records.claim(tx, {
      apiKeyId,
      key: request.key,
      requestHash: request.hash,
      status: response.status,
      response: response.body,
      now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS),
    });
  }

  /** A withdrawn job's recorded answer would replay a job that no longer exists. */
  forget(tx: Db, jobId: string): Promise<void> {
    return this.records.deleteForJob(tx, jobId);
  }
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. Bounded like the parser bounds bodies. */
function canonicalJson(value: unknown, depth = 0): string {
  if (!value || typeof value !== 'object') return JSON.stringify(value);
  if (depth >= MAX_JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`)
    .join(',')}}`;
}
