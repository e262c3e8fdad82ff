import { HttpException } from '@nestjs/common';
import { ApiError } from './api-error';
import { DomainError, type ErrorCode } from './domain-error';
import { ERROR_STATUS } from './error-status';
import { rateLimitHeaders } from './rate-limit-headers';

export interface ErrorResponse {
  status: number;
  body: { error: { code: ErrorCode; message: string; details?: { path: string; message: string }[] }; [member: string]: unknown };
  headers: Record<string, string | number>;
  /** True for errors we did not expect: logged with their stack, never shown to the client. */
  unexpected: boolean;
}

const FASTIFY_CODES: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_BAD_URL: [400, 'bad_request', 'The URL is malformed.'],
  // A path value longer than any the contract allows names no resource (as the request guard
  // answers for a path value outside its pattern): 404, not Fastify's 414, which no operation declares.
  FST_ERR_MAX_PARAM_LENGTH: [404, 'not_found', 'Resource not found.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The request body is empty but Content-Type is application/json.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'This Content-Type is not accepted here.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request', 'Content-Length does not match the body.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', 'The request body is too large.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type', 'Expected Content-Type multipart/form-data.'],
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * Postgres unreachable or going away: refused or timed-out connections, SQLSTATE class 08
 * (connection exception), 57P01-57P03 (admin/crash shutdown, starting up) and 53300 (too many
 * connections), or pg's "Connection terminated". A dependency outage, not a bug: 503, retryable.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const PG_UNAVAILABLE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: { code?: unknown; message?: unknown } } | undefined;
  const codes = [e?.code, e?.driverError?.code].filter((c): c is string => typeof c === 'string');
  if (codes.some((c) => UNREACHABLE.has(c) || PG_UNAVAILABLE.test(c))) return true;
  const raw = e?.driverError?.message ?? e?.message;
  const message = typeof raw === 'string' ? raw : '';
  return /^Connection terminated|timeout exceeded when trying to connect/.test(message);
}

/**
 * Maps anything thrown — a {@link DomainError} (its status from `ERROR_STATUS`), Nest's, Fastify's,
 * or a bug — to the `{error:{code,message}}` envelope.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof DomainError) {
    const error: ErrorResponse['body']['error'] = { code: err.code, message: err.message };
    if (err.details?.length) error.details = err.details;
    const status = err instanceof ApiError ? err.status : ERROR_STATUS[err.code];
    return { status, body: { ...err.members, error }, headers: errorHeaders(err), unexpected: false };
  }
  const anyErr = err as { code?: string; statusCode?: number; status?: number; message?: string } | undefined;
  if (anyErr?.code && FASTIFY_CODES[anyErr.code]) {
    const [status, code, message] = FASTIFY_CODES[anyErr.code];
    return simple(status, code, message);
  }
  if (err instanceof SyntaxError && (err as any).statusCode === 400) return simple(400, 'invalid_json', 'The request body is not valid JSON.');
  if (err instanceof HttpException) {
    const status = err.getStatus();
    if (status === 404) return simple(404, 'not_found', 'No such route.');
    // Nest rewraps Fastify's body-parser errors as bare HttpExceptions, keeping only status and message.
    if (status === 400 && /JSON/.test(err.message)) return simple(400, 'invalid_json', 'The request body is not valid JSON.');
    return simple(status, STATUS_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request'), status >= 500 ? 'Internal error.' : err.message);
  }
  const status = anyErr?.statusCode ?? anyErr?.status;
  if (status === 416) return rangeNotSatisfiable(err);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return simple(status, STATUS_CODES[status] ?? 'bad_request', anyErr?.message ?? 'Bad request.');
  }
  // Postgres down: 503 `unavailable` like readiness says, not a 500.
  if (isDatabaseUnavailable(err)) return simple(503, 'unavailable', 'The service is temporarily unavailable; retry shortly.');
  return { ...simple(500, 'internal_error', 'Internal error. It has been logged.'), unexpected: true };
}

/** The facts a client paces itself by, as the headers the contract declares (every 429 has Retry-After). */
function errorHeaders(err: DomainError): Record<string, string | number> {
  const headers: Record<string, string | number> = err.rateLimit ? rateLimitHeaders(err.rateLimit) : {};
  if (err.retryAfterSeconds !== undefined) headers['Retry-After'] = err.retryAfterSeconds;
  return err instanceof ApiError ? { ...headers, ...err.headers } : headers;
}

/** @fastify/send's 416 (reply.sendFile) carries `Content-Range: bytes *\/size`, which the client needs. */
function rangeNotSatisfiable(err: unknown): ErrorResponse {
  const headers = (err as { headers?: Record<string, unknown> }).headers ?? {};
  const contentRange = headers['Content-Range'] ?? headers['content-range'];
  const size = typeof contentRange === 'string' ? /^bytes \*\/(\d+)$/.exec(contentRange)?.[1] : undefined;
  const message = `The requested range is outside the file${size === undefined ? '' : ` (${size} bytes)`}.`;
  const res = simple(416, 'range_not_satisfiable', message);
  return typeof contentRange === 'string' ? { ...res, headers: { 'content-range': contentRange } } : res;
}

function simple(status: number, code: ErrorCode, message: string): ErrorResponse {
  return { status, body: { error: { code, message } }, headers: {}, unexpected: false };
}
