import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';

/** Addresses remembered as over budget, at most; expired ones are dropped first. */
const MAX_BLOCKED = 10_000;

/**
 * A budget of failed authentications per client address: made-up keys each cost a
 * database lookup. Every 401 of the key guard is counted in Redis (rate-limiter-flexible, one
 * EVALSHA, shared by every API process); the failure past AUTH_FAILURES_PER_IP in
 * AUTH_FAILURE_WINDOW_S becomes a 429, and this process then refuses that address's authenticated
 * requests from memory until the window ends, before any key lookup — so a request that
 * authenticates costs no Redis round trip here. While Redis is down each process counts alone.
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly logger = new Logger('Auth');
  private readonly limiter: RateLimiterRedis;
  private readonly budget: number;
  private readonly windowSeconds: number;
  /** Address → when its window ends (ms since epoch), for addresses seen over budget. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(@Inject(REDIS) redis: Redis, config: AppConfig) {
    this.budget = config.AUTH_FAILURES_PER_IP;
    this.windowSeconds = config.AUTH_FAILURE_WINDOW_S;
    const keyPrefix = `${deploymentPrefix(config)}:rl:auth-failures`;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: this.budget,
      duration: this.windowSeconds,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: this.budget, duration: this.windowSeconds }),
    });
  }

  /** Throws 429 while `ip` is known here to be over its budget. Memory only. */
  assertAllowed(ip: string): void {
    const until = this.blockedUntil.get(ip);
    if (until === undefined) return;
    const ms = until - Date.now();
    if (ms > 0) throw this.refusal(ms);
    this.blockedUntil.delete(ip);
  }

  /** Counts a failed authentication from `ip`: answers `failure` (the 401) within the budget, a 429 past it. */
  async refuse(ip: string, failure: DomainError): Promise<DomainError> {
    try {
      await this.limiter.consume(ip, 1);
      return failure;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) {
        this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'Failed authentication not counted');
        return failure;
      }
      this.block(ip, err.msBeforeNext);
      return this.refusal(err.msBeforeNext);
    }
  }

  private block(ip: string, ms: number): void {
    if (this.blockedUntil.size >= MAX_BLOCKED) {
      const now = Date.now();
      for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
      // Still full: the oldest entry goes (its address is counted in Redis all the same).
      if (this.blockedUntil.size >= MAX_BLOCKED) this.blockedUntil.delete(this.blockedUntil.keys().next().value!);
    }
    this.blockedUntil.set(ip, Date.now() + ms);
  }

  private refusal(ms: number): DomainError {
    const retryAfter = Math.max(1, Math.ceil(ms / 1000));
    return new DomainError('rate_limited', `Too many failed authentications from this address (${this.budget} per ${this.windowSeconds} s); retry in ${retryAfter} s.`, {
      retryAfterSeconds: retryAfter,
      rateLimit: { limit: this.budget, remaining: 0, resetSeconds: retryAfter },
    });
  }
}
