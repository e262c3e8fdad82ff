import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../common/api-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Requests-per-second limits kept in Redis, so every API process shares the same counters:
 * rate-limiter-flexible's RateLimiterRedis consumes with one EVALSHA of its Lua script (set, incr,
 * pttl in one round trip; test/e2e/rate-limit-redis.e2e-spec.ts counts it). A key past its limit is
 * then refused from this process's memory until its window ends (inMemoryBlockOnConsumed), without
 * asking Redis again. Per-process memory limits while Redis is down.
 */
@Injectable()
export class RateLimiterService {
  private readonly limiters = new Map<string, RateLimiterRedis>();
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
    const limiter = this.limiter(bucket, perSecond);
    try {
      const res = await limiter.consume(subject, 1);
      return this.state(perSecond, res);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'unavailable', 'The service is temporarily unavailable; retry shortly.');
      }
      const state = this.state(perSecond, err);
      const retryAfter = Math.max(1, state.resetSeconds);
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, 'rate_limited', `Rate limit of ${perSecond} requests per second exceeded; retry in ${retryAfter} s.`, undefined, {
        ...rateLimitHeaders(state),
        'Retry-After': retryAfter,
      });
    }
  }

  private state(limit: number, res: RateLimiterRes): RateLimitState {
    return {
      limit,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
    };
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
        // Over the limit: blocked in memory for the rest of the window (msBeforeNext).
        inMemoryBlockOnConsumed: perSecond + 1,
        // While Redis is unreachable each process limits on its own rather than refusing all traffic.
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl-mem:${id}`, points: perSecond, duration: 1 }),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, number> {
  return {
    'RateLimit-Limit': state.limit,
    'RateLimit-Remaining': state.remaining,
    'RateLimit-Reset': state.resetSeconds,
  };
}
