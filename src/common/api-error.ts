import { HttpStatus } from '@nestjs/common';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one exception type of the service: an HTTP status, a stable code and a message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string | number>,
  ) {
    super(message);
  }

  static notFound(what: string): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, 'not_found', `${what} not found.`);
  }

  static validation(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, 'validation_failed', message, details);
  }

  static conflict(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, code, message);
  }

  static forbidden(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, code, message);
  }

  static unauthorized(code: string, message: string): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, code, message);
  }
}
