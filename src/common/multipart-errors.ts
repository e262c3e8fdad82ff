import { HttpStatus } from '@nestjs/common';
import { ApiError } from './api-error';
import { DomainError } from './domain-error';

/** busboy's words for a body that is not well-formed multipart (it gives these errors no code). */
const MALFORMED = /Unexpected end of (multipart|form)|Boundary not found|Malformed part header|Part terminated early|Unexpected end of file/i;

/**
 * Turns a multipart parser failure into a 4xx: @fastify/multipart errors carry a `FST_*` code and a
 * status; busboy's only a message. Anything else (storage, database) passes through unchanged.
 */
export function asMultipartError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return err; // handled by the caller as file_too_large
  if (typeof e?.code === 'string' && e.code.startsWith('FST_') && e.statusCode && e.statusCode < 500) {
    const message = `The multipart body was refused: ${e.message}`;
    if (e.statusCode === 413) return new DomainError('body_too_large', message);
    if (e.statusCode === 400) return new DomainError('invalid_multipart', message);
    // The plugin's 406 (a part's declared JSON is not JSON) is a 415 here; a 4xx it may add keeps its status.
    return new ApiError(e.statusCode === 406 ? HttpStatus.UNSUPPORTED_MEDIA_TYPE : e.statusCode, 'invalid_multipart', message);
  }
  if (MALFORMED.test(e?.message ?? '')) {
    return new DomainError('invalid_multipart', `The multipart body is malformed: ${e.message}.`);
  }
  return err;
}
