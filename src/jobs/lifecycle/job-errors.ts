import type { ErrorCode } from '../../common/api-error';

export interface JobErrorDetail {
  path: string;
  message: string;
}

/**
 * Why a job command was refused, in the domain's words: a contract error code, a message, and
 * what a client may do about it. The HTTP status and the envelope are the presenter's (jobs.presenter.ts).
 */
export class JobCommandError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly details?: JobErrorDetail[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export type JobErrorCode = Extract<
  ErrorCode,
  | 'insufficient_credits'
  | 'spend_cap_reached'
  | 'concurrency_exceeded'
  | 'idempotency_conflict'
  | 'enqueue_failed'
  | 'cannot_cancel'
  | 'not_found'
  | 'validation_failed'
  | 'unsupported_input'
  | 'file_too_large'
>;

export const enqueueFailed = () => new JobCommandError('enqueue_failed', 'The job could not be queued; no credits were charged. Retry later.');
