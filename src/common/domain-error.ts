import type { ErrorCode } from '../../generated/types';

export type { ErrorCode };

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A limit that refused the request, so the client can pace itself. */
export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface DomainErrorFacts {
  /** Which inputs were wrong, each with a `path` such as `body/input/url`. */
  details?: ErrorDetail[];
  /** When the same request may succeed again. */
  retryAfterSeconds?: number;
  /** The limit the request ran into. */
  rateLimit?: LimitState;
  /** Facts the client needs beside the error (a `password_required` names the drop). */
  members?: Record<string, unknown>;
}

/**
 * Why the service refused something, in the domain's words: a code of the contract's `ErrorCode`
 * (a new one starts in openapi.yaml), a message for people, and the facts a client may act on.
 * Services, use cases and repositories throw it; they know no HTTP. The edge alone turns the code
 * into a status and the envelope (`common/error-status.ts`, `common/error-response.ts`).
 */
export class DomainError extends Error {
  readonly details?: ErrorDetail[];
  readonly retryAfterSeconds?: number;
  readonly rateLimit?: LimitState;
  readonly members?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    facts: DomainErrorFacts = {},
  ) {
    super(message);
    this.details = facts.details;
    this.retryAfterSeconds = facts.retryAfterSeconds;
    this.rateLimit = facts.rateLimit;
    this.members = facts.members;
  }

  static notFound(what: string): DomainError {
    return new DomainError('not_found', `${what} not found.`);
  }

  static validation(message: string, details?: ErrorDetail[]): DomainError {
    return new DomainError('validation_failed', message, { details });
  }
}
