import { formatMegapixels, MediaError } from './media.errors';
import { IMAGE_FORMATS, type ImageFit, type ImageFormat, type TransformImageOptions } from './media.types';
import { checkPlannedOutput, type Size } from './output-size';

export type { Size };

/** Pure decisions for image transforms (formats, target size, encoder options). No sharp here. */

/** Image containers we decode. SVG/PDF/raw/etc. are refused (SVG can reference neighbouring files). */
const ACCEPTED_INPUTS = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'heif'];

/** sharp's metadata names AVIF `heif` with compression `av1`. */
export function imageFormatName(format: string | undefined, compression?: string): string {
  if (format === 'heif' && compression === 'av1') return 'avif';
  return format ?? 'unknown';
}

export function isAcceptedImage(format: string): boolean {
  return ACCEPTED_INPUTS.includes(format);
}

export function outputFormatFor(inputFormat: string, requested: ImageFormat | undefined): ImageFormat {
  if (requested !== undefined) {
    if (!(IMAGE_FORMATS as readonly string[]).includes(requested)) throw badOption(`Unsupported image format '${String(requested)}'.`);
    return requested;
  }
  return (IMAGE_FORMATS as readonly string[]).includes(inputFormat) ? (inputFormat as ImageFormat) : 'png';
}

/** Animated GIF/WebP stay animated only when the output can hold frames. */
export function keepsAnimation(inputFormat: string, pages: number | undefined, output: ImageFormat): boolean {
  return (pages ?? 1) > 1 && ['gif', 'webp'].includes(inputFormat) && ['gif', 'webp'].includes(output);
}

/** The fit a transform uses: `fit` when given, else `inside` (`fill` when the aspect ratio is not kept). */
export function fitOf(opts: TransformImageOptions): ImageFit {
  return opts.fit ?? (opts.maintainAspectRatio === false ? 'fill' : 'inside');
}

/** The output size sharp will produce: `inside` fits in the box; `cover`, `contain` and `fill` make the box itself. */
export function targetSize(input: Size, opts: TransformImageOptions): Size {
  const { width, height } = opts;
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw badOption(`${name} must be a positive integer.`);
  }
  if (width === undefined && height === undefined) return input;
  if (width !== undefined && height !== undefined) {
    if (fitOf(opts) !== 'inside') return { width, height };
    const scale = Math.min(width / input.width, height / input.height);
    return { width: Math.max(1, Math.round(input.width * scale)), height: Math.max(1, Math.round(input.height * scale)) };
  }
  if (width !== undefined) return { width, height: Math.max(1, Math.round((input.height * width) / input.width)) };
  return { width: Math.max(1, Math.round((input.width * height!) / input.height)), height: height! };
}

/**
 * The thumbnail sharp will write: `width`×`height` when both are given (fit `inside` keeps the
 * aspect ratio and never enlarges), else the other side in proportion (fit `inside`: not past the input).
 */
export function thumbnailSize(input: Size, opts: { width?: number; height?: number; fit?: string }): Size {
  const { width, height } = opts;
  const inside = (opts.fit ?? 'cover') === 'inside';
  const size = width !== undefined && height !== undefined && !inside ? { width, height } : targetSize(input, { width, height });
  if (!inside || size.width <= input.width) return size;
  return input;
}

/**
 * Refuses work above the pixel limit: an input (decompression bomb) as `unsupported_input`, a
 * requested output (in `format`) as `invalid_option` (checkPlannedOutput).
 */
export function checkPixels(what: 'image' | 'output', size: Size, frames: number, limit: number, format?: string): void {
  if (what === 'output') return checkPlannedOutput('The output', size, limit, { frames, format });
  const pixels = size.width * size.height * frames;
  if (pixels <= limit) return;
  const dims = `${size.width}×${size.height}${frames > 1 ? ` × ${frames} frames` : ''}`;
  throw new MediaError('unsupported_input', `The image is ${dims} pixels, which exceeds the limit of ${formatMegapixels(limit)}.`);
}

export function checkQuality(quality: number | undefined): number {
  const q = quality ?? 80;
  if (!(Number.isInteger(q) && q >= 1 && q <= 100)) throw badOption('quality must be an integer from 1 to 100.');
  return q;
}

/** sharp encoder options per format. png/gif are lossless/palettised, so quality does not apply. */
export function encoderOptions(format: ImageFormat, quality: number, hasAlpha: boolean): Record<string, unknown> {
  switch (format) {
    case 'jpeg':
      return { quality };
    case 'webp':
      return { quality };
    case 'avif':
      return { quality, effort: 4 };
    case 'tiff':
      // JPEG-in-TIFF drops alpha; keep transparency losslessly instead.
      return hasAlpha ? { compression: 'lzw' } : { compression: 'jpeg', quality };
    case 'png':
      return { compressionLevel: 6 };
    case 'gif':
      return {};
  }
}

/** Turns a libvips message into a MediaError with a one-line client message. */
export function classifySharpError(err: unknown, limitPixels: number): MediaError {
  if (err instanceof MediaError) return err;
  const text = err instanceof Error ? err.message : String(err);
  const tooLarge = /too large for the (\w+) format/i.exec(text);
  if (/pixel limit/i.test(text)) {
    return new MediaError('unsupported_input', `The image exceeds the limit of ${formatMegapixels(limitPixels)}.`, text);
  }
  if (tooLarge) return new MediaError('processing_failed', `The resulting image is too large for the ${tooLarge[1]} format.`, text);
  if (/unsupported image format/i.test(text)) return new MediaError('unsupported_input', 'The file is not a supported image.', text);
  if (/premature|truncat|corrupt|invalid|bad |load|decode|read error|not a /i.test(text)) {
    return new MediaError('unsupported_input', 'The image is corrupt or truncated.', text);
  }
  return new MediaError('processing_failed', 'Image processing failed.', text);
}

function badOption(message: string): MediaError {
  return new MediaError('processing_failed', message);
}
