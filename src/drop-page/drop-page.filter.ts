import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../common/error-response';
import { sendHtml } from './drop-page.headers';
import { renderMessagePage } from './drop-page.view';

/**
 * The upload page is for people, not API clients: a missing drop — including a slug the contract's
 * pattern rules out, refused by the validation guard before the handler runs — is an HTML 404,
 * and a failure an HTML 5xx, instead of the JSON error envelope.
 */
@Catch()
export class DropPageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(DropPageErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const res = toErrorResponse(exception);
    if (res.unexpected) {
      this.logger.error({ reqId: request?.id, err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : exception });
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    reply.headers(res.headers);
    sendHtml(reply, res.status, (nonce) => renderMessagePage(res.status === 404 ? 'not_found' : 'error', nonce), false);
  }
}

/** For a page URL Fastify's router refuses before any route (a slug too long to be a parameter). */
export function sendDropPageFrameworkError(reply: FastifyReply, exception: unknown): void {
  const res = toErrorResponse(exception);
  sendHtml(reply, res.status, (nonce) => renderMessagePage(res.status === 404 ? 'not_found' : 'error', nonce), false);
}
