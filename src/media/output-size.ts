import { formatMegapixels, MediaError } from './media.errors';

export interface Size {
  width: number;
  height: number;
}

/** The longest side each encoder writes (libwebp: 16 383; JPEG: 65 535); others are bounded by pixels alone. */
const MAX_SIDE: Record<string, number> = { webp: 16_383, jpeg: 65_535 };

/**
 * Refuses a planned output before any process builds it: an encoder or filter allocates the whole
 * image first (ffmpeg's tile and scale filters, libvips, pdftoppm), so a tiny input with a tall
 * aspect ratio and a wide requested size can ask for gigabytes. `invalid_option`, naming the size:
 * a smaller width, dpi or column count would do. `what` starts the message ("The thumbnail").
 */
export function checkPlannedOutput(what: string, size: Size, limitPixels: number, opts: { frames?: number; format?: string; maxSide?: number } = {}): void {
  const frames = opts.frames ?? 1;
  const pixels = size.width * size.height * frames;
  const dims = `${size.width}×${size.height}${frames > 1 ? ` × ${frames} frames` : ''}`;
  if (pixels > limitPixels) {
    throw new MediaError('invalid_option', `${what} would be ${dims} pixels (${formatMegapixels(pixels)}), which exceeds the limit of ${formatMegapixels(limitPixels)}.`);
  }
  const maxSide = Math.min(opts.maxSide ?? Infinity, (opts.format && MAX_SIDE[opts.format]) || Infinity);
  if (Math.max(size.width, size.height) > maxSide) {
    throw new MediaError('invalid_option', `${what} would be ${dims} pixels, more than the limit of ${maxSide} pixels on a side.`);
  }
}

/** What ffmpeg's `scale=<width>:-2` makes of a `video` frame: the height kept in proportion, rounded to even. */
export function scaledFrame(video: Size, width?: number): Size {
  if (!width) return video;
  return { width, height: Math.max(2, Math.round((width * video.height) / video.width / 2) * 2) };
}
