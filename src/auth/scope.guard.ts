import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import './auth-context';
import { assertScope } from './scopes';

/**
 * Third global guard: the scope named by the operation's `x-required-scope` in openapi.yaml.
 * `by-tool` operations (job submission) are checked by the jobs service once the tool is known.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const scope = request.operation?.scope;
    if (!scope || scope === 'by-tool' || !request.auth) return true;
    assertScope(request.auth.key.scopes, scope);
    return true;
  }
}
