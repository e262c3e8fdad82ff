import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { limitsOf } from '../config/plans';
import type { ApiKey } from './api-key.entity';
import { RateLimiterService, type RateLimitState } from './rate-limiter.service';

/**
 * The two request limits, counted in one place whoever applies them: the key guard for most
 * operations, the tus endpoints for a HEAD, PATCH or DELETE that does not continue an upload they
 * admitted (src/tus/admitted-uploads.ts). Each throws 429 `rate_limited` past its limit.
 */
@Injectable()
export class RequestLimits {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly config: AppConfig,
  ) {}

  /** One public request from `ip`: PUBLIC_RATE_LIMIT a second per client address. */
  address(ip: string): Promise<RateLimitState> {
    return this.limiter.consume('ip', ip, this.config.PUBLIC_RATE_LIMIT);
  }

  /** One request made with `key`: its plan's requests a second. */
  key(key: ApiKey): Promise<RateLimitState> {
    return this.limiter.consume('key', key.id, limitsOf(key.account.plan).requestsPerSecond);
  }
}
