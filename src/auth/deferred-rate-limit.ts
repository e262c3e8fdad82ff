import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../common/error-response';
import { rateLimitHeaders } from '../common/rate-limit-headers';
import type { RateLimitState } from './rate-limiter.service';

type Verdict = { state: RateLimitState } | { refusal: unknown };
const VERDICT = Symbol('rateLimitVerdict');
type WithVerdict = FastifyRequest & { [VERDICT]?: Promise<Verdict> };

/**
 * A plain read (an authenticated GET answered with JSON) has no side effects, so it need not wait
 * for its rate-limit verdict: the guard starts the Redis round trip, the handler's database query
 * runs meanwhile, and `applyDeferredVerdict` (an onSend hook) waits for the verdict before a byte is
 * written. A refused read still answers 429 `rate_limited` with the same headers and body, whatever
 * its handler produced; the auth order (401, 403 ip, 429, then validation and scope) is unchanged
 * for the client. Writes keep waiting in the guard: they must not run at all when refused.
 */
export function canDeferVerdict(request: FastifyRequest): boolean {
  const operation = request.operation;
  // A streamed answer (the archive) could not be replaced once its handler has piped it.
  return operation !== undefined && operation.method === 'GET' && operation.answersJson;
}

export function deferVerdict(request: FastifyRequest, verdict: Promise<RateLimitState>): void {
  (request as WithVerdict)[VERDICT] = verdict.then(
    (state) => ({ state }),
    (refusal: unknown) => ({ refusal }),
  );
}

/** onSend: the deferred verdict's headers on the answer, or the answer replaced by the refusal. */
export async function applyDeferredVerdict(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const pending = (request as WithVerdict)[VERDICT];
  if (!pending) return payload;
  const verdict = await pending;
  if ('state' in verdict) {
    reply.headers(rateLimitHeaders(verdict.state));
    return payload;
  }
  const refused = toErrorResponse(verdict.refusal); // 429 rate_limited, or 503 while Redis is unusable
  reply.code(refused.status).headers(refused.headers).header('content-type', 'application/json');
  reply.removeHeader('content-disposition');
  return JSON.stringify(refused.body);
}
