import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RequestValidationGuard } from '../contract/request-validation.guard';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { FailedAuthLimiter } from './failed-auth-limiter';
import { RateLimiterService } from './rate-limiter.service';
import { RequestLimits } from './request-limits';
import { ScopeGuard } from './scope.guard';

/**
 * The three guards of every route (APP_GUARD), in this order: key (401/403 ip/429), request
 * validation (400), scope (403). Its limiters are exported for the tus routes (TusModule imports it).
 */
@Module({
  providers: [
    ApiKeysRepository,
    ApiKeysService,
    ApiKeyCache,
    RateLimiterService,
    RequestLimits,
    FailedAuthLimiter,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: RequestValidationGuard },
    { provide: APP_GUARD, useClass: ScopeGuard },
  ],
  exports: [ApiKeysService, RateLimiterService, RequestLimits],
})
export class AuthModule {}
