import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Requests a process claims from the shared count in one Redis round trip: a tenth of the limit
 * (at least 1). Free (5/s) and the public IP limit (10/s) claim one at a time, as before; pro 2,
 * max 5, the bench plan 100 000. README "Rate limits across processes" states what it costs.
 */
export const CLAIM_FRACTION = 0.1;
export const claimSize = (perSecond: number): number => Math.max(1, Math.ceil(perSecond * CLAIM_FRACTION));
/** Past this many subjects, expired leases are swept before a new one is added. */
const SWEEP_AT = 10_000;

/** What this process may still admit for one subject in the current window. */
interface Lease {
  /** End of the shared window, on this process's clock (never later than Redis's own expiry). */
  expiresAt: number;
  /** Requests claimed from Redis and not yet admitted here. */
  tokens: number;
  /** The limit minus everything every process had claimed at the last claim. */
  sharedLeft: number;
  /** Redis has no more to give in this window: refuse from memory until it ends. */
  spent: boolean;
  claiming?: Promise<void>;
}

/**
 * Requests-per-second limits shared by every API process, counted in each process and reconciled
 * with Redis in batches. The shared count per subject and 1 s window lives in Redis
 * (rate-limiter-flexible's RateLimiterRedis: set NX, incrby, pttl in one EVALSHA); a process
 * claims `claimSize(limit)` requests from it at once (a lease) and admits them from memory, so a
 * plain read costs a Redis round trip once per batch instead of once per request. A claim past the
 * limit is granted only what was left, then the subject is refused from memory until the window
 * ends. Hence: exact within one process (it admits what it claimed, and claims at most the limit);
 * across processes never more than the limit, and at least the limit minus what other processes
 * claimed but did not use (fewer than claimSize each). While Redis is unreachable each process
 * limits on its own (insurance limiter).
 */
@Injectable()
export class RateLimiterService {
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private readonly leases = new Map<string, Lease>();
  /** Counters live under the deployment's Redis prefix: deployments (and test runs) sharing a Redis never share counts. */
  private readonly keyPrefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: AppConfig,
  ) {
    this.keyPrefix = `${deploymentPrefix(config)}:rl`;
  }

  /** Consumes one request for `subject`; throws 429 `rate_limited` (with headers) past the limit. */
  async consume(bucket: string, subject: string, perSecond: number): Promise<RateLimitState> {
    const id = `${bucket}:${perSecond}:${subject}`;
    for (;;) {
      let lease = this.leases.get(id);
      const now = Date.now();
      if (lease && !lease.claiming && now >= lease.expiresAt) {
        this.leases.delete(id);
        lease = undefined;
      }
      if (lease && lease.tokens > 0) {
        lease.tokens--;
        return { limit: perSecond, remaining: lease.sharedLeft + lease.tokens, resetSeconds: secondsUntil(lease.expiresAt, now) };
      }
      if (lease?.claiming) {
        await lease.claiming; // a claim for this subject is on its way: share it
        continue;
      }
      if (lease?.spent) throw this.refusal(perSecond, secondsUntil(lease.expiresAt, now));
      if (!lease) {
        if (this.leases.size >= SWEEP_AT) this.sweep(now);
        lease = { expiresAt: 0, tokens: 0, sharedLeft: 0, spent: false };
        this.leases.set(id, lease);
      }
      const claiming = this.claim(lease, bucket, subject, perSecond);
      lease.claiming = claiming;
      try {
        await claiming;
      } finally {
        lease.claiming = undefined;
      }
    }
  }

  /** One round trip: takes up to claimSize requests from the shared count into `lease`. */
  private async claim(lease: Lease, bucket: string, subject: string, perSecond: number): Promise<void> {
    const size = claimSize(perSecond);
    const sentAt = Date.now();
    let res: RateLimiterRes;
    try {
      res = await this.limiter(bucket, perSecond).consume(subject, size);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        throw new DomainError('unavailable', 'The service is temporarily unavailable; retry shortly.');
      }
      res = err; // past the limit: the count went up anyway, so what was left is what we got
    }
    const granted = Math.min(size, Math.max(0, perSecond - (res.consumedPoints - size)));
    // The window's end as Redis counts it from its answer, counted here from before the question.
    lease.expiresAt = sentAt + res.msBeforeNext;
    lease.tokens += granted;
    lease.sharedLeft = Math.max(0, perSecond - res.consumedPoints);
    lease.spent = res.consumedPoints >= perSecond;
  }

  private refusal(perSecond: number, resetSeconds: number): DomainError {
    const retryAfter = Math.max(1, resetSeconds);
    return new DomainError('rate_limited', `Rate limit of ${perSecond} requests per second exceeded; retry in ${retryAfter} s.`, {
      retryAfterSeconds: retryAfter,
      rateLimit: { limit: perSecond, remaining: 0, resetSeconds },
    });
  }

  private sweep(now: number): void {
    for (const [id, lease] of this.leases) if (!lease.claiming && now >= lease.expiresAt) this.leases.delete(id);
  }

  private limiter(bucket: string, perSecond: number): RateLimiterRedis {
    const id = `${bucket}:${perSecond}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.keyPrefix}:${id}`,
        points: perSecond,
        duration: 1,
        // While Redis is unreachable each process limits on its own rather than refusing all traffic.
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl-mem:${id}`, points: perSecond, duration: 1 }),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}
