/** Stable codes; the first four are also job error codes (docs/decisions.md §7). */
export type FetchErrorCode = 'blocked_address' | 'input_too_large' | 'timeout' | 'input_fetch_failed' | 'invalid_url';

/**
 * The one error GuardedHttpClient throws. `message` is safe to show the API user (it names the
 * host, never a resolved address); `cause` keeps the underlying error for logs only.
 */
export class FetchError extends Error {
  readonly name = 'FetchError';

  constructor(
    readonly code: FetchErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
