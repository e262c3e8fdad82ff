import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { Deadline } from './deadline';
import {
  checkPixels,
  checkQuality,
  classifySharpError,
  encoderOptions,
  fitOf,
  imageFormatName,
  isAcceptedImage,
  keepsAnimation,
  outputFormatFor,
  targetSize,
  thumbnailSize,
} from './image-plan';
import { MediaError } from './media.errors';
import { checkInput, outputPath } from './media-files';
import type { ImageHeader, ImagePosition, MediaOutput, ProbeResult, ThumbnailImageOptions, ThumbnailOutput, TransformImageOptions } from './media.types';

/**
 * Images, with sharp (libvips): the header, a resize or conversion, a thumbnail with its
 * placeholder. Dimensions are checked against `maxInputPixels` from the header, before a single
 * pixel is decoded.
 */
export class ImageAdapter {
  constructor(
    private readonly timeLimitMs: number,
    private readonly maxInputPixels: number,
  ) {}

  /** The probe of an image (an image sharp reads but we do not accept: kind 'unknown'); undefined when sharp reads no image. */
  async probe(abs: string): Promise<ProbeResult | undefined> {
    const meta = await sharp(abs, this.sharpHeader())
      .metadata()
      .catch(() => undefined);
    if (!meta) return undefined;
    const format = imageFormatName(meta.format, meta.compression);
    if (!isAcceptedImage(format)) return { kind: 'unknown', format };
    return { kind: 'image', format, width: meta.autoOrient?.width ?? meta.width, height: meta.autoOrient?.height ?? meta.height, image: imageHeader(meta) };
  }

  /** The header alone (nothing decoded). */
  async header(abs: string): Promise<ImageHeader> {
    return imageHeader(await sharp(abs, this.sharpHeader()).metadata());
  }

  /**
   * `probed`: the header from probe() of this same file, when the caller has it (the job runner
   * does), so the file is not opened again for it.
   */
  async transform(input: string, outDir: string, opts: TransformImageOptions = {}, probed?: ImageHeader): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const { abs, quality, meta } = await this.source(input, opts.quality, probed);
      const inFormat = meta.format;
      const format = outputFormatFor(inFormat, opts.format);
      const animated = keepsAnimation(inFormat, meta.pages, format);
      const frames = animated ? (meta.pages ?? 1) : 1;
      const inSize = { width: meta.width, height: meta.height };
      checkPixels('image', inSize, frames, this.maxInputPixels);
      checkPixels('output', targetSize(inSize, opts), frames, this.maxInputPixels, format);

      out = await outputPath(outDir, format === 'jpeg' ? 'jpg' : format, abs);
      // libvips counts its timeout in whole seconds.
      let img = sharp(abs, { ...this.sharpInput(), animated }).timeout({ seconds: Math.ceil(deadline.require() / 1000) });
      if (opts.width !== undefined || opts.height !== undefined) {
        img = img.resize({
          width: opts.width,
          height: opts.height,
          fit: fitOf(opts),
          position: sharpPosition(opts.position),
          // `contain` pads: transparent where the output keeps alpha, white in a jpeg.
          background: format === 'jpeg' ? '#ffffff' : { r: 0, g: 0, b: 0, alpha: 0 },
        });
      }
      if (format === 'jpeg' && meta.hasAlpha) img = img.flatten({ background: '#ffffff' });
      if (opts.stripMetadata === false) img = img.keepMetadata();
      // sharp reports what it wrote: no second read of the output for its size or dimensions.
      const written = await img.toFormat(format, encoderOptions(format, quality, meta.hasAlpha)).toFile(out);
      return { path: out, format, size: written.size, width: written.width, height: written.pageHeight ?? written.height };
    } catch (err) {
      throw await this.failed(err, out, deadline);
    }
  }

  /**
   * A thumbnail (first frame of an animation), auto-oriented and stripped of metadata, with its
   * ThumbHash and dominant colour, both read from the written thumbnail (small: cheap to decode).
   */
  async thumbnail(input: string, outDir: string, opts: ThumbnailImageOptions, probed?: ImageHeader): Promise<ThumbnailOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const { abs, quality, meta } = await this.source(input, opts.quality, probed);
      if (opts.width === undefined && opts.height === undefined) throw new MediaError('processing_failed', 'Give width or height.');
      checkPixels('image', meta, 1, this.maxInputPixels);
      checkPixels('output', thumbnailSize(meta, opts), 1, this.maxInputPixels, opts.format);
      const fit = opts.fit ?? 'cover';
      const position = { attention: sharp.strategy.attention, entropy: sharp.strategy.entropy, center: 'centre' }[opts.position ?? 'attention'];
      const jpeg = opts.format === 'jpeg';
      out = await outputPath(outDir, jpeg ? 'jpg' : opts.format, abs);
      // Smart crop needs the whole shrunk image, not a sequential read.
      let img = sharp(abs, { ...this.sharpInput(), sequentialRead: fit !== 'cover' })
        .timeout({ seconds: Math.ceil(deadline.require() / 1000) })
        .resize({
          width: opts.width,
          height: opts.height,
          fit,
          position: fit === 'cover' ? position : 'centre',
          withoutEnlargement: fit === 'inside',
          background: jpeg ? '#ffffff' : { r: 0, g: 0, b: 0, alpha: 0 },
        });
      if (jpeg && meta.hasAlpha) img = img.flatten({ background: '#ffffff' });
      const written = await img.toFormat(opts.format, encoderOptions(opts.format, quality, meta.hasAlpha)).toFile(out);
      const placeholder = await placeholderOf(out);
      return { path: out, format: opts.format, size: written.size, width: written.width, height: written.height, ...placeholder };
    } catch (err) {
      throw await this.failed(err, out, deadline);
    }
  }

  /**
   * The input's path, the quality asked for, and its header: the probe's when given (the file is not
   * opened again), else read. Refused unless an image we accept.
   */
  private async source(input: string, quality: number | undefined, probed?: ImageHeader): Promise<{ abs: string; quality: number; meta: ImageHeader }> {
    const abs = probed ? resolve(input) : await checkInput(input);
    const checked = checkQuality(quality);
    // Header only: dimensions are checked before a single pixel is decoded.
    const meta = probed ?? (await this.header(abs));
    if (!isAcceptedImage(meta.format)) throw new MediaError('unsupported_input', `Images in ${meta.format.toUpperCase()} format are not supported.`);
    return { abs, quality: checked, meta };
  }

  /** A failed operation's error (sharp's timeout is the Deadline's), once its partial output is gone. */
  private async failed(err: unknown, out: string | undefined, deadline: Deadline): Promise<Error> {
    if (out) await rm(out, { force: true });
    if (!(err instanceof MediaError) && /timeout/i.test(String((err as Error)?.message))) return deadline.error();
    return classifySharpError(err, this.maxInputPixels);
  }

  /** An RGBA raster drawn in memory (a waveform), written as PNG; sharp's report describes it. */
  async writePng(raster: Buffer, size: { width: number; height: number }, out: string): Promise<{ size: number; width: number; height: number }> {
    const written = await sharp(raster, { raw: { width: size.width, height: size.height, channels: 4 } })
      .png({ compressionLevel: 6 })
      .toFile(out);
    return { size: written.size, width: written.width, height: written.height };
  }

  /** For metadata(): reads the header only, so no pixel limit (sharp would refuse a bomb without naming its size). */
  private sharpHeader(): SharpOptions {
    return { ...this.sharpInput(), limitInputPixels: false };
  }

  private sharpInput(): SharpOptions {
    // failOn 'error': truncated/corrupt pixel data aborts, harmless warnings do not.
    return { limitInputPixels: this.maxInputPixels, sequentialRead: true, failOn: 'error', autoOrient: true };
  }
}

/** ThumbHash (at most 100×100 by its design) and dominant colour of a written thumbnail, from one small decode. */
async function placeholderOf(path: string): Promise<{ thumbhash: string; dominantColor: string }> {
  const { data, info } = await sharp(path).resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const thumbhash = Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
  const { dominant } = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).stats();
  const dominantColor = `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  return { thumbhash, dominantColor };
}

/** sharp's name for a position: a side or libvips' smart-crop strategies (`cover` only). */
function sharpPosition(position: ImagePosition | undefined): string | number {
  if (position === 'attention') return sharp.strategy.attention;
  if (position === 'entropy') return sharp.strategy.entropy;
  return position === undefined || position === 'center' ? 'centre' : position;
}

function imageHeader(meta: Metadata): ImageHeader {
  return {
    format: imageFormatName(meta.format, meta.compression),
    width: meta.autoOrient?.width ?? meta.width,
    height: meta.autoOrient?.height ?? meta.pageHeight ?? meta.height,
    pages: meta.pages,
    hasAlpha: meta.hasAlpha ?? false,
    orientation: meta.orientation,
  };
}
