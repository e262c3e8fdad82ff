import { HttpStatus } from '@nestjs/common';
import type { ErrorCode } from '../../generated/types';

export type { ErrorCode };

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The one exception type of the service: an HTTP status, a stable code and a message. The code
 * is one of the contract's `ErrorCode` values, so a new one starts in openapi.yaml.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string | number>,
    /** Members sent beside `error` in the body (401 `password_required` names the drop). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  static notFound(what: string): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, 'not_found', `${what} not found.`);
  }

  static validation(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, 'validation_failed', message, details);
  }

  static conflict(code: ErrorCode, message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, code, message);
  }

  static forbidden(code: ErrorCode, message: string): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, code, message);
  }

  static unauthorized(code: ErrorCode, message: string): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, code, message);
  }
}
