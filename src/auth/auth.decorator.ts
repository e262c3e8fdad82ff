import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context';

/**
 * The caller's key and account, set by the ApiKeyGuard. Only for operations with security: on a
 * public operation there is none, and asking for it is a programming error (a 500), not a 401.
 */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new Error('@Auth() used on a route whose operation is not authenticated');
  return auth;
});
