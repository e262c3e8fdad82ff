/** The `Range` request header, for one range of bytes (RFC 9110 §14). */
export type RangeRequest =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * Reads `bytes=a-b`, `bytes=a-` and `bytes=-n` against a file of `size` bytes (end inclusive,
 * clamped to the file). A header we do not understand — another unit, bad syntax, several
 * ranges — is ignored and the whole file is sent, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };

  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return { kind: 'full' }; // invalid range-spec: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
