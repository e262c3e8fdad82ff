/** `invalid_option`: an option the input cannot honour, known only once it is read (a page past the last; a width that makes an output over the pixel limit). */
/** `canceled`: the run was stopped (its job canceled, or another run took it over); nobody reads its result. */
export type MediaErrorCode = 'unsupported_input' | 'processing_failed' | 'timeout' | 'invalid_option' | 'canceled';

/**
 * The only error the media layer throws. `message` is one human-readable line, safe to show to
 * API clients. `detail` (non-enumerable, so it stays out of JSON and error envelopes) carries the
 * tool's own words — an ffmpeg stderr tail or a libvips message — for logs only.
 */
export class MediaError extends Error {
  override readonly name = 'MediaError';
  declare readonly detail?: string;

  constructor(
    readonly code: MediaErrorCode,
    message: string,
    detail?: string,
  ) {
    super(message);
    if (detail) Object.defineProperty(this, 'detail', { value: detail, enumerable: false });
  }
}

/** `50 ms`, `30 s`, `10 min` — for messages. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Math.round(ms / 100) / 10} s`;
  return `${ms / 60_000} min`;
}

/** `100 megapixels`, `0.5 megapixels`. */
export function formatMegapixels(pixels: number): string {
  return `${Math.round(pixels / 100_000) / 10} megapixels`;
}

export function stoppedError(): MediaError {
  return new MediaError('canceled', 'Processing was stopped: the job was canceled.');
}

export function timeoutError(limitMs: number): MediaError {
  return new MediaError('timeout', `Processing exceeded the time limit of ${formatDuration(limitMs)}.`);
}

/** Wraps anything that is not already a MediaError; the original text goes to `detail`. */
export function toMediaError(err: unknown, message: string): MediaError {
  if (err instanceof MediaError) return err;
  return new MediaError('processing_failed', message, err instanceof Error ? err.message : String(err));
}
