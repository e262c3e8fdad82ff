/**
 * The wait before a webhook's next attempt: the schedule's delay, or longer when the receiver's
 * Retry-After asks for it — but never longer than the schedule's longest delay. A huge value
 * (99999999999999999999 seconds) made an Invalid Date and left the delivery `pending` forever;
 * a malformed one is ignored.
 */
export function retryDelayMs(schedule: number[], retriesUsed: number, retryAfter: string | undefined, now: Date): number {
  const scheduled = schedule[retriesUsed] * 1000;
  const ceiling = Math.max(...schedule) * 1000;
  const asked = parseRetryAfter(retryAfter, now);
  return Math.min(Math.max(scheduled, asked ?? 0), Math.max(scheduled, ceiling));
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,12}$/.test(trimmed)) return Number(trimmed) * 1000;
  if (/^\d+$/.test(trimmed)) return Number.MAX_SAFE_INTEGER; // absurdly long: clamped by the caller
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now.getTime()) : undefined;
}
