import type { LimitState } from './domain-error';

/** A limit as the RateLimit-* response headers, on answers inside the limit and on its 429s alike. */
export function rateLimitHeaders(state: LimitState): Record<string, number> {
  return {
    'RateLimit-Limit': state.limit,
    'RateLimit-Remaining': state.remaining,
    'RateLimit-Reset': state.resetSeconds,
  };
}
