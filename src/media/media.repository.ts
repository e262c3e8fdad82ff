import { Inject, Injectable, Optional } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { Deadline } from './deadline';
import { DocumentEngine } from './documents';
import {
  audioOutputPlan,
  ffmpegInputArgs,
  ffprobeArgs,
  isStatsLine,
  lastFramePlan,
  type OutputPlan,
  parseStatsTime,
  storyboardGeometry,
  storyboardPlan,
  videoFramePlan,
  videoOutputPlan,
} from './ffmpeg-args';
import { type AvInfo, parseFfprobe } from './ffprobe-data';
import {
  checkPixels,
  checkQuality,
  classifySharpError,
  encoderOptions,
  imageFormatName,
  isAcceptedImage,
  keepsAnimation,
  outputFormatFor,
  targetSize,
  thumbnailSize,
} from './image-plan';
import { formatMegapixels, MediaError, toMediaError } from './media.errors';
import { avInfo, documentInfo, imageInfo } from './media-info';
import { checkPlannedOutput, scaledFrame } from './output-size';
import { decodePcm } from './pcm-stream';
import { drawWaveform, PEAK_BLOCKS, PeakAccumulator, waveformJson } from './waveform';
import {
  DOCUMENT_LIMITS,
  type AudioWaveformOptions,
  type ImageHeader,
  type MediaInfo,
  type ThumbnailImageOptions,
  type ThumbnailOutput,
  MEDIA_LIMITS,
  type OfficeFormat,
  OFFICE_FORMATS,
  type RenderPdfPageOptions,
  type MediaOutput,
  type MediaRepositoryOptions,
  type ProbeResult,
  type ProgressCallback,
  type StoryboardOptions,
  type StoryboardOutput,
  type TranscodeAudioOptions,
  type TranscodeVideoOptions,
  type TransformImageOptions,
  type VideoFrameOptions,
} from './media.types';

export const MEDIA_REPOSITORY_OPTIONS = Symbol('MEDIA_REPOSITORY_OPTIONS');

/**
 * The only place that runs sharp, ffmpeg and ffprobe. Every operation reads one local file, writes
 * one generated file name (`output.<ext>`, or `output-<random>.<ext>` if that is taken) into
 * `outDir`, describes the output (sharp's report of what it wrote; ffprobe of the written file for
 * video and audio), and deletes it on any failure.
 * All failures are MediaError (`unsupported_input` | `processing_failed` | `timeout`).
 */
@Injectable()
export class MediaRepository {
  private readonly ffmpegPath: string;
  private readonly ffprobePath: string;
  private readonly timeLimitMs: number;
  private readonly maxInputPixels: number;
  private readonly documentTimeLimitMs: number;
  private readonly documents: DocumentEngine;

  constructor(@Optional() @Inject(MEDIA_REPOSITORY_OPTIONS) options: MediaRepositoryOptions = {}) {
    this.ffmpegPath = options.ffmpegPath || 'ffmpeg';
    this.ffprobePath = options.ffprobePath || 'ffprobe';
    this.timeLimitMs = options.timeLimitMs ?? MEDIA_LIMITS.timeLimitMs;
    this.maxInputPixels = options.maxInputPixels ?? MEDIA_LIMITS.maxInputPixels;
    this.documentTimeLimitMs = options.documentTimeLimitMs ?? DOCUMENT_LIMITS.timeLimitMs;
    this.documents = new DocumentEngine(
      {
        soffice: options.sofficePath || 'soffice',
        pdftoppm: options.pdftoppmPath || 'pdftoppm',
        pdfinfo: options.pdfinfoPath || 'pdfinfo',
      },
      this.maxInputPixels,
    );
  }

  /**
   * What a file is. Never throws for non-media (kind 'unknown'); only for a missing file or a timeout.
   * Documents: PDF, Office, OpenDocument and RTF by their magic bytes (a PDF with its page count),
   * then, once nothing else matched, UTF-8 text (`txt`, or `html` when it starts like a page).
   */
  async probe(path: string): Promise<ProbeResult> {
    const deadline = new Deadline(this.timeLimitMs);
    const abs = await checkInput(path);
    const document = await this.documents.identify(abs, deadline);
    if (document) return document;
    const meta = await sharp(abs, this.sharpHeader())
      .metadata()
      .catch(() => undefined);
    if (meta) {
      const format = imageFormatName(meta.format, meta.compression);
      if (!isAcceptedImage(format)) return { kind: 'unknown', format };
      return { kind: 'image', format, width: meta.autoOrient?.width ?? meta.width, height: meta.autoOrient?.height ?? meta.height, image: imageHeader(meta) };
    }
    try {
      const av = await this.ffprobe(abs, deadline);
      return { kind: av.kind, format: av.format, width: av.width, height: av.height, duration: av.duration, av };
    } catch (err) {
      if (err instanceof MediaError && err.code === 'unsupported_input') return (await this.documents.identifyText(abs)) ?? { kind: 'unknown', format: 'unknown' };
      throw err;
    }
  }

  /**
   * An office or text document (`format`: the probe's name for it, one of OFFICE_FORMATS) to PDF
   * with LibreOffice, sandboxed and time-limited (documents.ts). `pages`: the PDF's page count.
   */
  async convertDocumentToPdf(input: string, outDir: string, format: string): Promise<MediaOutput> {
    const deadline = new Deadline(this.documentTimeLimitMs);
    if (!(OFFICE_FORMATS as readonly string[]).includes(format)) {
      throw new MediaError('unsupported_input', `Documents in ${format.toUpperCase()} format cannot be converted to PDF; supported: ${OFFICE_FORMATS.join(', ')}.`);
    }
    const abs = await checkInput(input);
    const out = await outputPath(outDir, 'pdf', abs);
    try {
      return await this.documents.convertToPdf(abs, format as OfficeFormat, out, deadline);
    } catch (err) {
      await rm(out, { force: true });
      throw toMediaError(err, 'The document could not be converted.');
    }
  }

  /**
   * One page of a PDF as png, jpeg or webp with poppler's pdftoppm. `pages`: the PDF's page count
   * when the probe has it (else read here). Over DOCUMENT_LIMITS.maxPdfPages pages: `unsupported_input`;
   * a page past the last: `invalid_option`.
   */
  async renderPdfPage(input: string, outDir: string, opts: RenderPdfPageOptions, pages?: number): Promise<MediaOutput> {
    const deadline = new Deadline(this.documentTimeLimitMs);
    const abs = await checkInput(input);
    const count = pages ?? (await this.documents.pageCount(abs, deadline));
    const out = await outputPath(outDir, opts.format === 'jpeg' ? 'jpg' : opts.format, abs);
    try {
      return await this.documents.renderPage(abs, count, opts, out, deadline);
    } catch (err) {
      await rm(out, { force: true });
      throw toMediaError(err, 'The PDF page could not be rendered.');
    }
  }

  /**
   * `probed`: the header from probe() of this same file, when the caller has it (the job runner
   * does), so the file is not opened again for it.
   */
  async transformImage(input: string, outDir: string, opts: TransformImageOptions = {}, probed?: ImageHeader): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = probed ? resolve(input) : await checkInput(input);
      const quality = checkQuality(opts.quality);
      // Header only: dimensions are checked before a single pixel is decoded.
      const meta = probed ?? imageHeader(await sharp(abs, this.sharpHeader()).metadata());
      const inFormat = meta.format;
      if (!isAcceptedImage(inFormat)) {
        throw new MediaError('unsupported_input', `Images in ${inFormat.toUpperCase()} format are not supported.`);
      }
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
        img = img.resize({ width: opts.width, height: opts.height, fit: opts.maintainAspectRatio === false ? 'fill' : 'inside' });
      }
      if (format === 'jpeg' && meta.hasAlpha) img = img.flatten({ background: '#ffffff' });
      if (opts.stripMetadata === false) img = img.keepMetadata();
      // sharp reports what it wrote: no second read of the output for its size or dimensions.
      const written = await img.toFormat(format, encoderOptions(format, quality, meta.hasAlpha)).toFile(out);
      return { path: out, format, size: written.size, width: written.width, height: written.pageHeight ?? written.height };
    } catch (err) {
      if (out) await rm(out, { force: true });
      if (!(err instanceof MediaError) && /timeout/i.test(String((err as Error)?.message))) throw deadline.error();
      throw classifySharpError(err, this.maxInputPixels);
    }
  }

  /**
   * A thumbnail (first frame of an animation), auto-oriented and stripped of metadata, with its
   * ThumbHash and dominant colour, both read from the written thumbnail (small: cheap to decode).
   */
  async thumbnailImage(input: string, outDir: string, opts: ThumbnailImageOptions, probed?: ImageHeader): Promise<ThumbnailOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = probed ? resolve(input) : await checkInput(input);
      const quality = checkQuality(opts.quality);
      const meta = probed ?? imageHeader(await sharp(abs, this.sharpHeader()).metadata());
      if (!isAcceptedImage(meta.format)) throw new MediaError('unsupported_input', `Images in ${meta.format.toUpperCase()} format are not supported.`);
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
      if (out) await rm(out, { force: true });
      if (!(err instanceof MediaError) && /timeout/i.test(String((err as Error)?.message))) throw deadline.error();
      throw classifySharpError(err, this.maxInputPixels);
    }
  }

  /**
   * The peaks of the first audio stream, mixed to mono at its own sample rate, computed while
   * ffmpeg decodes (the PCM is never held whole): BBC audiowaveform JSON, or a PNG drawn by sharp.
   */
  async audioWaveform(input: string, outDir: string, opts: AudioWaveformOptions, onProgress?: ProgressCallback, probed?: AvInfo): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = probed ?? (await this.ffprobe(abs, deadline));
      this.checkTranscodable('audio', info);
      const sampleRate = info.sampleRate ?? 44_100;
      const points = opts.format === 'png' ? (opts.width ?? 1800) : (opts.points ?? 800);
      // At least two blocks per point: every point gets peaks of its own, however many are asked for.
      const peaks = new PeakAccumulator(Math.max(PEAK_BLOCKS, 2 * points));
      await decodePcm(
        this.ffmpegPath,
        abs,
        info.demuxer!,
        sampleRate,
        deadline,
        (samples) => peaks.push(samples),
        (t) => {
          if (info.duration) safeProgress(onProgress, Math.min(99, Math.round((t / info.duration) * 100)));
        },
      );
      // A cut M4A (or another container that states its length) decodes "successfully" up to the cut.
      if (info.duration && peaks.samples < info.duration * sampleRate * 0.5) {
        throw new MediaError('unsupported_input', 'The audio file is truncated or corrupt.', `expected ${info.duration}s, decoded ${peaks.samples / sampleRate}s`);
      }
      const duration = peaks.samples / sampleRate;
      if (opts.format === 'png') {
        const width = points;
        const height = opts.height ?? 280;
        checkPlannedOutput('The waveform', { width, height }, this.maxInputPixels);
        out = await outputPath(outDir, 'png', abs);
        const raster = drawWaveform(peaks.finish(width), height, opts.color ?? '#3a7bd5');
        const written = await sharp(raster, { raw: { width, height, channels: 4 } })
          .png({ compressionLevel: 6 })
          .toFile(out);
        safeProgress(onProgress, 100);
        return { path: out, format: 'png', size: written.size, width: written.width, height: written.height, duration };
      }
      out = await outputPath(outDir, 'json', abs);
      await writeFile(out, JSON.stringify(waveformJson(peaks.finish(points), sampleRate, peaks.samples, opts.bits ?? 8)));
      safeProgress(onProgress, 100);
      return { path: out, format: 'json', size: (await stat(out)).size, duration };
    } catch (err) {
      if (out) await rm(out, { force: true });
      throw toMediaError(err, 'Audio processing failed.');
    }
  }

  /** What a file is, from its headers only (nothing decoded): sharp's metadata for images, ffprobe for video and audio. */
  async inspect(input: string, probe: ProbeResult): Promise<MediaInfo> {
    const deadline = new Deadline(this.timeLimitMs);
    const abs = await checkInput(input);
    const size = (await stat(abs)).size;
    if (probe.kind === 'image') return imageInfo(probe.image ?? imageHeader(await sharp(abs, this.sharpHeader()).metadata()), size);
    if (probe.kind === 'video' || probe.kind === 'audio') return avInfo(probe.av ?? (await this.ffprobe(abs, deadline)), size);
    return documentInfo(probe, size);
  }

  /** mp4/mov: H.264 + AAC (+faststart); webm: VP9 + Opus. See CRF in ffmpeg-args.ts. */
  transcodeVideo(input: string, outDir: string, opts: TranscodeVideoOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.transcode('video', input, outDir, () => videoOutputPlan(opts), opts.format, onProgress);
  }

  /** mp3 (libmp3lame CBR), aac (.m4a), opus (.opus, Ogg), wav (PCM s16le). */
  transcodeAudio(input: string, outDir: string, opts: TranscodeAudioOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.transcode('audio', input, outDir, () => audioOutputPlan(opts), opts.format, onProgress);
  }

  /** One frame of a video as jpeg/webp/png (a poster): ffmpeg picks and scales it, sharp encodes it. */
  async videoFrame(input: string, outDir: string, opts: VideoFrameOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.fromVideo(input, outDir, opts.format, async (abs, info, png, deadline) => {
      // An `at` past the end (or within its last frame) finds no frame: then the last one.
      const at = opts.at === 'auto' || info.duration === undefined ? opts.at : Math.min(opts.at, info.duration);
      if (info.width && info.height)
        checkPlannedOutput('The frame', scaledFrame({ width: info.width, height: info.height }, opts.width), this.maxInputPixels, { format: opts.format });
      const plan = videoFramePlan(at, info.duration, opts.width);
      await this.runFfmpeg(abs, info, png, plan.output, deadline, 'video', onProgress, plan.input);
      if (!(await isFile(png)) && info.duration !== undefined) {
        const last = lastFramePlan(info.duration, opts.width);
        await this.runFfmpeg(abs, info, png, last.output, deadline, 'video', undefined, last.input);
      }
    });
  }

  /**
   * A storyboard sprite: a tile every `interval` seconds, `columns` to a row (ffmpeg's fps, scale and
   * tile filters), encoded by sharp; with the tile geometry (storyboardGeometry: the tile limit may widen the interval).
   */
  async videoStoryboard(input: string, outDir: string, opts: StoryboardOptions, onProgress?: ProgressCallback): Promise<StoryboardOutput> {
    let geometry: ReturnType<typeof storyboardGeometry> | undefined;
    let duration = 0;
    const sprite = await this.fromVideo(input, outDir, opts.format, async (abs, info, png, deadline) => {
      if (!info.duration || !info.width || !info.height) throw new MediaError('unsupported_input', 'The video does not state its duration or size.');
      duration = info.duration;
      geometry = storyboardGeometry(info.duration, { width: info.width, height: info.height }, opts, this.maxInputPixels);
      await this.runFfmpeg(abs, info, png, storyboardPlan(geometry), deadline, 'video', onProgress);
    });
    return { sprite, duration, ...geometry! };
  }

  /**
   * The frame operations' common part: probe and check the video, let `draw` write one PNG with
   * ffmpeg, encode it to `format` with sharp (its report describes the output), remove the PNG.
   */
  private async fromVideo(
    input: string,
    outDir: string,
    format: 'jpeg' | 'webp' | 'png',
    draw: (abs: string, info: AvInfo, png: string, deadline: Deadline) => Promise<void>,
  ): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let png: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = await this.ffprobe(abs, deadline);
      this.checkTranscodable('video', info);
      await mkdir(resolve(outDir), { recursive: true });
      png = join(resolve(outDir), `frame-${randomBytes(4).toString('hex')}.png`);
      await draw(abs, info, png, deadline);
      if (!(await isFile(png))) throw new MediaError('unsupported_input', 'No frame could be decoded from the video.');
      return await this.transformImage(png, outDir, { format, quality: 82 });
    } catch (err) {
      throw toMediaError(err, 'Video processing failed.');
    } finally {
      if (png) await rm(png, { force: true });
    }
  }

  private async transcode(
    kind: 'video' | 'audio',
    input: string,
    outDir: string,
    makePlan: () => OutputPlan,
    expectedFormat: string,
    onProgress?: ProgressCallback,
  ): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const plan = makePlan();
      const abs = await checkInput(input);
      const info = await this.ffprobe(abs, deadline);
      this.checkTranscodable(kind, info);

      out = await outputPath(outDir, plan.ext, abs);
      await this.runFfmpeg(abs, info, out, plan.args, deadline, kind, onProgress);

      const result = await this.ffprobe(out, deadline);
      if (result.kind !== kind || result.format !== expectedFormat) {
        throw new MediaError('processing_failed', `The ${kind} output could not be verified.`, `${result.kind}/${result.format}`);
      }
      // A truncated input usually decodes "successfully" up to the cut; the output then is much shorter.
      if (kind === 'video' && info.duration && result.duration !== undefined && result.duration < info.duration * 0.5) {
        throw truncated(kind, `input ${info.duration}s, output ${result.duration}s`);
      }
      safeProgress(onProgress, 100);
      return {
        path: out,
        format: result.format,
        size: (await stat(out)).size,
        width: result.width,
        height: result.height,
        duration: result.duration,
        bitrate: kind === 'audio' && result.audioBitrate ? `${Math.round(result.audioBitrate / 1000)}k` : undefined,
      };
    } catch (err) {
      if (out) await rm(out, { force: true });
      throw toMediaError(err, `${capitalise(kind)} processing failed.`);
    }
  }

  private checkTranscodable(kind: 'video' | 'audio', info: AvInfo): void {
    if (kind === 'video' && info.kind !== 'video') throw new MediaError('unsupported_input', 'The file has no video stream.');
    if (kind === 'audio' && !info.audioCodec) throw new MediaError('unsupported_input', 'The file has no audio stream.');
    if (kind === 'video' && (info.width ?? 0) * (info.height ?? 0) > this.maxInputPixels) {
      throw new MediaError('unsupported_input', `The video is ${info.width}×${info.height} pixels, which exceeds the limit of ${formatMegapixels(this.maxInputPixels)}.`);
    }
  }

  /** For metadata(): reads the header only, so no pixel limit (sharp would refuse a bomb without naming its size). */
  private sharpHeader(): SharpOptions {
    return { ...this.sharpInput(), limitInputPixels: false };
  }

  private sharpInput(): SharpOptions {
    // failOn 'error': truncated/corrupt pixel data aborts, harmless warnings do not.
    return { limitInputPixels: this.maxInputPixels, sequentialRead: true, failOn: 'error', autoOrient: true };
  }

  /** ffprobe a local file through the allowlisted demuxers; not media → `unsupported_input`. */
  private ffprobe(abs: string, deadline: Deadline): Promise<AvInfo> {
    const timeout = deadline.require();
    return new Promise((done, fail) => {
      execFile(this.ffprobePath, ffprobeArgs(abs), { timeout, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
        if (!err) {
          try {
            const info = parseFfprobe(stdout);
            if (info.demuxer && info.kind !== 'unknown') return done(info);
          } catch {
            // fall through: unreadable output means we do not understand the file
          }
          return fail(new MediaError('unsupported_input', 'The file is not a supported video or audio file.', stderr));
        }
        // execFile also kills on maxBuffer overflow; only a spent budget is a timeout.
        if (err.killed && deadline.remainingMs() < 100) return fail(deadline.error());
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          return fail(new MediaError('processing_failed', 'ffprobe is not available on this server.', err.message));
        }
        fail(new MediaError('unsupported_input', 'The file is not a supported video or audio file, or it is corrupt.', tail(stderr)));
      });
    });
  }

  private runFfmpeg(
    abs: string,
    info: AvInfo,
    out: string,
    outputArgs: string[],
    deadline: Deadline,
    kind: 'video' | 'audio',
    onProgress?: ProgressCallback,
    inputArgs: string[] = [],
  ): Promise<void> {
    deadline.require();
    return new Promise((done, fail) => {
      const errors: string[] = [];
      let partialInput = false;
      let timedOut = false;
      let lastPercent = 0;
      const command = ffmpeg({ stdoutLines: 20 })
        .setFfmpegPath(this.ffmpegPath)
        .input(`file:${abs}`)
        .inputOptions([...ffmpegInputArgs(info.demuxer!), ...inputArgs])
        .output(out)
        .outputOptions(outputArgs);
      const kill = () => command.kill('SIGKILL');
      const unwatch = deadline.watch(() => {
        timedOut = true;
        kill();
      });

      // The fluent-ffmpeg 'progress' event is not used on purpose: listening to it makes fluent-ffmpeg
      // run its own ffprobe on the input, without our protocol/format allowlists.
      command.on('start', () => {
        if (timedOut) kill(); // the time limit passed while fluent-ffmpeg was still preparing
      });
      command.on('stderr', (line: string) => {
        if (isStatsLine(line)) {
          const t = parseStatsTime(line);
          if (t === undefined || !info.duration) return;
          const percent = Math.min(99.9, Math.round((t / info.duration) * 1000) / 10);
          if (percent > lastPercent) safeProgress(onProgress, (lastPercent = percent));
          return;
        }
        if (/partial file/i.test(line)) partialInput = true;
        if (errors.push(line) > 20) errors.shift();
      });
      command.on('error', (err: Error) => {
        unwatch();
        const detail = [err.message.split('\n')[0], ...errors].join('\n');
        if (timedOut) return fail(withDetail(deadline.error(), detail));
        if (/ENOENT|Cannot find ffmpeg/i.test(err.message)) {
          return fail(new MediaError('processing_failed', 'ffmpeg is not available on this server.', detail));
        }
        if (partialInput || /invalid data|moov atom|partial file|corrupt|truncat|end of file/i.test(detail)) {
          return fail(truncated(kind, detail));
        }
        fail(new MediaError('processing_failed', `${capitalise(kind)} transcoding failed.`, detail));
      });
      command.on('end', () => {
        unwatch();
        if (timedOut) return fail(deadline.error());
        if (partialInput) return fail(truncated(kind, errors.join('\n')));
        done();
      });
      command.run();
    });
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

async function checkInput(path: string): Promise<string> {
  const abs = resolve(path);
  const st = await stat(abs).catch(() => undefined);
  if (!st?.isFile()) throw new MediaError('processing_failed', 'The input file does not exist.');
  if (st.size === 0) throw new MediaError('unsupported_input', 'The file is empty.');
  return abs;
}

/** `output.<ext>` unless that name is taken (or is the input itself); then `output-<random>.<ext>`. */
async function outputPath(outDir: string, ext: string, inputAbs: string): Promise<string> {
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const plain = join(dir, `output.${ext}`);
  const taken =
    plain === inputAbs ||
    (await lstat(plain).then(
      () => true,
      () => false,
    ));
  return taken ? join(dir, `output-${randomBytes(4).toString('hex')}.${ext}`) : plain;
}

async function isFile(path: string): Promise<boolean> {
  const st = await stat(path).catch(() => undefined);
  return Boolean(st?.isFile() && st.size > 0);
}

function truncated(kind: 'video' | 'audio', detail: string): MediaError {
  return new MediaError('unsupported_input', `The ${kind} file is truncated or corrupt.`, detail);
}

function withDetail(err: MediaError, detail: string): MediaError {
  return new MediaError(err.code, err.message, detail);
}

function safeProgress(onProgress: ProgressCallback | undefined, percent: number): void {
  try {
    onProgress?.(percent);
  } catch {
    // a failing progress listener must not break the transcode
  }
}

function tail(text: string): string {
  return text.split('\n').filter(Boolean).slice(-20).join('\n');
}

function capitalise(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
