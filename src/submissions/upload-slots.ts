import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import { redisLease } from '../redis/redis-lease';

/** A slot outlives a process that died holding it by at most this long. */
const LEASE_MS = 15_000;
/** Each held slot's lease is extended this often while its request lasts. */
const RENEW_MS = LEASE_MS / 3;

/**
 * Concurrent public uploads per client IP (PUBLIC_UPLOADS_PER_IP), across every API process: a
 * stranger cannot hold every socket and disk stream of the deployment with many slow uploads at
 * once, by the single POST or by tus (POST, PATCH, HEAD). Counted in Redis with a lease per slot,
 * renewed while its request lasts, so a slot never outlives its request by more than LEASE_MS even
 * when its process crashes. While Redis is unreachable each process counts on its own, as before.
 */
@Injectable()
export class UploadSlots {
  private readonly local = new Map<string, number>();
  private readonly prefix: string;

  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.prefix = `${deploymentPrefix(config)}:upload-slots:`;
  }

  /**
   * Runs `work` holding one of the client's slots (429 `too_many_uploads` when none is left). The
   * slot is held while the request's body may still be arriving, not just while `work` reads it.
   */
  async during<T>(ip: string, request: IncomingMessage, response: ServerResponse, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(ip);
    request.once('close', release);
    // Answered (or the connection gone): nothing more of this request will be read, and a leased
    // slot must never outlive it (a request whose body is never read to its end emits no 'close').
    response.once('close', release);
    try {
      return await work();
    } finally {
      if (request.readableEnded || request.destroyed) release();
    }
  }

  /** Takes a slot for `ip` or throws 429 `too_many_uploads`; the returned function frees it (once). */
  async acquire(ip: string): Promise<() => void> {
    const cap = this.config.PUBLIC_UPLOADS_PER_IP;
    const key = this.prefix + ip;
    const member = randomUUID();
    let taken: boolean;
    try {
      taken = await redisLease.acquire(this.redis, key, cap, member, LEASE_MS);
    } catch {
      return this.acquireLocally(ip, cap);
    }
    if (!taken) throw tooManyUploads(cap);
    const renewal = setInterval(() => void redisLease.renew(this.redis, key, member, LEASE_MS).catch(() => undefined), RENEW_MS);
    renewal.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewal);
      // Should Redis miss this, the lease lapses by itself.
      void redisLease.release(this.redis, key, member).catch(() => undefined);
    };
  }

  private acquireLocally(ip: string, cap: number): () => void {
    const held = this.local.get(ip) ?? 0;
    if (held >= cap) throw tooManyUploads(cap);
    this.local.set(ip, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.local.get(ip) ?? 1) - 1;
      if (left > 0) this.local.set(ip, left);
      else this.local.delete(ip);
    };
  }
}

function tooManyUploads(cap: number): DomainError {
  return new DomainError('too_many_uploads', `At most ${cap} uploads from one address may be in progress at once; retry when one has finished.`, {
    retryAfterSeconds: 1,
    // The limit is this one too: `cap` uploads at once, none left now.
    rateLimit: { limit: cap, remaining: 0, resetSeconds: 1 },
  });
}
