import { DomainError, type ErrorCode, type ErrorDetail } from './domain-error';

/**
 * A {@link DomainError} with its HTTP status and headers spelled out, for the edge (controllers,
 * guards, filters, `common`'s Fastify-facing files, `tus`, `drop-page`) when the status is not the
 * one `ERROR_STATUS` gives its code: the documented exceptions listed there. Everywhere else throw
 * a DomainError and let the table decide. The core may not import this file (.dependency-cruiser.cjs).
 */
export class ApiError extends DomainError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    readonly headers?: Record<string, string | number>,
    /** Members sent beside `error` in the body. */
    extra?: Record<string, unknown>,
  ) {
    super(code, message, { details, members: extra });
  }
}
