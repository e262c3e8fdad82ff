import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { JobCommandError, type JobErrorCode } from './lifecycle/job-errors';

/** The one place a job command's refusal becomes an HTTP status and the error envelope. */
const STATUS: Record<JobErrorCode, number> = {
  insufficient_credits: HttpStatus.PAYMENT_REQUIRED,
  spend_cap_reached: HttpStatus.PAYMENT_REQUIRED,
  concurrency_exceeded: HttpStatus.TOO_MANY_REQUESTS,
  idempotency_conflict: HttpStatus.CONFLICT,
  enqueue_failed: HttpStatus.INTERNAL_SERVER_ERROR,
  cannot_cancel: HttpStatus.CONFLICT,
  not_found: HttpStatus.NOT_FOUND,
  validation_failed: HttpStatus.BAD_REQUEST,
  unsupported_input: HttpStatus.BAD_REQUEST,
  file_too_large: HttpStatus.PAYLOAD_TOO_LARGE,
};

export function toApiError(err: JobCommandError): ApiError {
  // Every 429 carries Retry-After (declared on each 429 of the contract).
  const headers = err.retryAfterSeconds !== undefined ? { 'Retry-After': err.retryAfterSeconds } : undefined;
  return new ApiError(STATUS[err.code], err.code, err.message, err.details, headers);
}

/** Runs a job command for a controller, answering its refusals in the contract's terms. */
export async function presented<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (err) {
    throw err instanceof JobCommandError ? toApiError(err) : err;
  }
}
