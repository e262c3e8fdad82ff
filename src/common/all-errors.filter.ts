import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';

/** The global filter: every error leaves as the envelope, through Fastify's reply. */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    sendError(reply, exception, request, this.logger);
  }
}

export function sendError(reply: FastifyReply, exception: unknown, request: FastifyRequest | undefined, logger: Pick<Logger, 'error'>): void {
  const res = toErrorResponse(exception);
  if (res.unexpected) {
    logger.error({ reqId: request?.id, err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : exception });
  }
  if (reply.sent || reply.raw.headersSent) {
    reply.raw.destroy();
    return;
  }
  // An error is a JSON body, never the attachment a download handler had announced.
  reply.removeHeader('content-disposition');
  reply.status(res.status).headers(res.headers).header('content-type', 'application/json').send(res.body);
}

/**
 * For errors Fastify's router answers before any route (a malformed URL): the app's onSend hooks do
 * not run there, so Fastify would add `; charset=utf-8` to the JSON type and no X-Request-Id would
 * be sent. The answer is written as every other error is, by hand.
 */
export function sendFrameworkError(reply: FastifyReply, exception: unknown, request: FastifyRequest, logger: Pick<Logger, 'error'>): void {
  const res = toErrorResponse(exception);
  if (res.unexpected) logger.error({ reqId: request.id, err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : exception });
  if (reply.sent || reply.raw.headersSent) {
    reply.raw.destroy();
    return;
  }
  const body = JSON.stringify(res.body);
  reply.hijack();
  reply.raw.writeHead(res.status, { ...res.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': request.id }).end(body);
}
