import { ApiError } from './api-error';
import { DomainError } from './domain-error';
import { toErrorResponse } from './error-response';
import { ERROR_STATUS } from './error-status';

describe('toErrorResponse: a DomainError becomes its status and the envelope', () => {
  it('takes the status from the code (ERROR_STATUS), and sends details only when there are some', () => {
    expect(toErrorResponse(DomainError.notFound('Drop'))).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'Drop not found.' } },
      headers: {},
      unexpected: false,
    });
    const details = [{ path: 'body/input/url', message: 'must be an http(s) URL' }];
    expect(toErrorResponse(DomainError.validation('input.url must be an http or https URL.', details))).toMatchObject({
      status: 400,
      body: { error: { code: 'validation_failed', details } },
    });
    expect(toErrorResponse(new DomainError('validation_failed', 'x', { details: [] })).body.error).not.toHaveProperty('details');
    expect(toErrorResponse(new DomainError('insufficient_credits', 'x')).status).toBe(402);
    expect(toErrorResponse(new DomainError('upload_locked', 'x')).status).toBe(423);
    expect(toErrorResponse(new DomainError('enqueue_failed', 'x'))).toMatchObject({ status: 500, unexpected: false });
  });

  it('gives every code a client-error or server-error status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect([code, status >= 400 && status < 600]).toEqual([code, true]);
  });

  it('renders the retry time and the limit hit as Retry-After and RateLimit-*', () => {
    const err = new DomainError('rate_limited', 'Slow down.', { retryAfterSeconds: 3, rateLimit: { limit: 10, remaining: 0, resetSeconds: 3 } });
    expect(toErrorResponse(err)).toMatchObject({
      status: 429,
      headers: { 'Retry-After': 3, 'RateLimit-Limit': 10, 'RateLimit-Remaining': 0, 'RateLimit-Reset': 3 },
    });
    expect(toErrorResponse(new DomainError('scan_pending', 'Wait.', { retryAfterSeconds: 0 })).headers).toEqual({ 'Retry-After': 0 });
  });

  it('sends members beside error, never in place of it', () => {
    const err = new DomainError('password_required', 'Send the password.', { members: { drop: { name: 'Photos', requiresPassword: true }, error: 'overwritten' } });
    expect(toErrorResponse(err)).toMatchObject({
      status: 401,
      body: { drop: { name: 'Photos', requiresPassword: true }, error: { code: 'password_required', message: 'Send the password.' } },
    });
  });

  it("keeps an ApiError's spelled-out status and headers (the edge's documented exceptions)", () => {
    const err = new ApiError(415, 'invalid_multipart', 'The multipart body was refused.', undefined, { 'X-Why': 'part' });
    expect(toErrorResponse(err)).toMatchObject({ status: 415, body: { error: { code: 'invalid_multipart' } }, headers: { 'X-Why': 'part' } });
    expect(ERROR_STATUS.invalid_multipart).toBe(400);
  });
});
