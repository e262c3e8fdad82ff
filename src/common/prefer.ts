import parsePreferHeader from 'parse-prefer-header';

/** The bounds of `Prefer: wait=N`: longer waits are better served by a webhook. */
export const MIN_WAIT_S = 1;
export const MAX_WAIT_S = 60;

/**
 * The seconds of a `Prefer: wait=N` header (RFC 7240 §4.3), or undefined when there is none to
 * honour. Per RFC 7240 §2 a preference the server cannot honour is ignored, not refused: a
 * malformed N (`wait=soon`, `wait=1.5`), one outside 1–60 or a header without `wait` leave the
 * request as it would be without it (and no `Preference-Applied`). The first `wait` counts.
 */
export function preferredWait(header: string | readonly string[] | undefined): number | undefined {
  const value = parsePreferHeader(header).wait;
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds >= MIN_WAIT_S && seconds <= MAX_WAIT_S ? seconds : undefined;
}
