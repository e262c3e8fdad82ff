import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { Contract } from '../contract/contract';
import { OPERATION_KEY } from '../contract/operation.decorator';
import { identifyRequest } from '../logging/request-identity';
import { ApiKeyCache, keyLookups } from './api-key-cache';
import type { ApiKey } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { FailedAuthLimiter } from './failed-auth-limiter';
import { ipAllowed } from './ip-allowlist';
import { rateLimitHeaders } from '../common/rate-limit-headers';
import { RequestLimits } from './request-limits';
import { bearerToken, hashToken } from './tokens';
import { canDeferVerdict, deferVerdict } from './deferred-rate-limit';
import './auth-context';

/** Public operations limited per client IP rather than per key. */
const IP_LIMITED = new Set(['getPublicDrop', 'createPublicSubmission', 'getDropPage', 'createDropTusUpload']);

/**
 * The HEAD, PATCH and DELETE of a tus upload: their handler counts them (per address, or per key)
 * unless they continue an upload that endpoint admitted, which a chunked upload's many requests a
 * second do (src/tus/admitted-uploads.ts). Counted there before any slot, database or storage read.
 */
const LIMITED_BY_HANDLER = new Set(['getDropTusUploadOffset', 'appendDropTusUpload', 'deleteDropTusUpload', 'getTusUploadOffset', 'appendTusUpload', 'deleteTusUpload']);

/**
 * First global guard. In the order of docs/decisions.md §2: 401 (unauthorized, invalid_key, revoked,
 * expired), 403 ip_not_allowed, 429 rate_limited (for plain reads decided in onSend: deferred-rate-limit.ts).
 * Sets request.auth for later guards and handlers.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly contract: Contract,
    private readonly keys: ApiKeysService,
    private readonly cache: ApiKeyCache,
    private readonly limits: RequestLimits,
    private readonly clock: Clock,
    private readonly failedAuth: FailedAuthLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const operationId = this.reflector.get<string>(OPERATION_KEY, context.getHandler());
    if (!operationId) return true; // not an API operation (docs, contract files)
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const operation = this.contract.operation(operationId);
    request.operation = operation;

    if (!operation.authenticated) {
      if (IP_LIMITED.has(operationId)) await this.limits.address(request.ip);
      return true;
    }

    // Failed authentications are budgeted per address (failed-auth-limiter.ts): each 401 is counted,
    // and an address over budget is refused here, before its key is looked up.
    this.failedAuth.assertAllowed(request.ip);
    const failed = (error: DomainError) => this.failedAuth.refuse(request.ip, error);
    const header = request.headers.authorization;
    const token = bearerToken(header);
    if (!token) {
      throw await failed(
        new DomainError('unauthorized', header ? 'The Authorization header must be "Bearer dl_live_…".' : 'Missing Authorization header: send "Bearer <API key>".'),
      );
    }
    const key = await this.findKey(token);
    if (!key) throw await failed(new DomainError('invalid_key', 'The API key is not recognized.'));
    if (key.revokedAt) throw await failed(new DomainError('revoked', `The API key was revoked on ${key.revokedAt.toISOString()}.`));
    if (key.expiresAt && key.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw await failed(new DomainError('expired', `The API key expired on ${key.expiresAt.toISOString()}.`));
    }
    if (!ipAllowed(request.ip, key.ipAllowlist)) {
      throw new DomainError('ip_not_allowed', `Requests from ${request.ip} are not allowed for this API key.`);
    }
    request.auth = { key, account: key.account };
    identifyRequest(request.raw, { accountId: key.account.id, keyId: key.id });
    if (LIMITED_BY_HANDLER.has(operationId)) return true;
    const verdict = this.limits.key(key);
    // A plain read runs while Redis answers; its verdict is applied before the answer leaves.
    if (canDeferVerdict(request)) deferVerdict(request, verdict);
    else reply.headers(rateLimitHeaders(await verdict));
    return true;
  }

  /** From the in-process cache when it can vouch for the key (see ApiKeyCache), else from Postgres. */
  private async findKey(token: string): Promise<ApiKey | null> {
    const hash = hashToken(token).toString('base64');
    const cached = this.cache.get(hash);
    if (cached) {
      keyLookups.inc({ source: 'cache' });
      return cached;
    }
    const generation = this.cache.generation;
    const key = await this.keys.findByToken(token);
    keyLookups.inc({ source: 'database' });
    if (key) this.cache.store(hash, key, generation);
    return key;
  }
}
