import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { toDetails } from './contract';

/**
 * Second global guard: validates path, query, headers and JSON body against the operation's
 * schemas compiled from openapi.yaml. Query values are coerced in place (e.g. "true" → true).
 */
@Injectable()
export class RequestValidationGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const op = request.operation;
    if (!op) return true;

    // A path that cannot name a resource names no resource: 404 rather than 400.
    if (!op.path(request.params ?? {})) throw DomainError.notFound('Resource');

    const query = (request.query ?? {}) as Record<string, unknown>;
    if (!op.query(query)) throw this.invalid('query', op.query.errors);
    if (!op.headers({ ...request.headers })) throw this.invalid('header', op.headers.errors);

    if (op.body) {
      const hasBody = request.body !== undefined && request.body !== null;
      const type = request.headers['content-type'];
      if ((hasBody || type) && !/^application\/json\b/i.test(type ?? '')) {
        throw new DomainError('unsupported_media_type', 'Expected Content-Type application/json.');
      }
      if (!hasBody && op.bodyRequired) {
        throw DomainError.validation('A JSON request body is required.', [{ path: 'body', message: 'is required' }]);
      }
      if (hasBody && !op.body(request.body)) throw this.invalid('body', op.body.errors);
    }
    return true;
  }

  private invalid(where: string, errors: Parameters<typeof toDetails>[1]): DomainError {
    const details = toDetails(where, errors);
    const first = details[0];
    return DomainError.validation(first ? `${first.path}: ${first.message}` : `Invalid ${where}.`, details);
  }
}
