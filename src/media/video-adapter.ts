import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Deadline } from './deadline';
import type { FfmpegAdapter } from './ffmpeg-adapter';
import { lastFramePlan, storyboardGeometry, storyboardPlan, videoFramePlan, videoOutputPlan } from './ffmpeg-args';
import type { AvInfo } from './ffprobe-data';
import type { ImageAdapter } from './image-adapter';
import { MediaError, toMediaError } from './media.errors';
import { checkInput, isFile, outputPath } from './media-files';
import type { MediaOutput, ProgressCallback, StoryboardOptions, StoryboardOutput, TranscodeVideoOptions, VideoFrameOptions } from './media.types';
import { checkPlannedOutput, scaledFrame } from './output-size';

/** Video: transcoding with ffmpeg, and frames: a poster written by ffmpeg, a storyboard sprite drawn by ffmpeg and encoded by sharp. */
export class VideoAdapter {
  constructor(
    private readonly ffmpeg: FfmpegAdapter,
    private readonly images: ImageAdapter,
  ) {}

  /** mp4/mov: H.264 + AAC (+faststart); webm: VP9 + Opus; scaled, trimmed, resampled in time as asked. See CRF in ffmpeg-args.ts. */
  transcode(input: string, outDir: string, opts: TranscodeVideoOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.ffmpeg.transcode('video', input, outDir, (info) => videoOutputPlan(opts, info, this.ffmpeg.maxInputPixels), opts.format, onProgress);
  }

  /**
   * One frame of a video as jpeg/webp/png (a poster), picked, scaled and encoded by ffmpeg in one
   * run; the written file's header (sharp) describes it. `probed`: ffprobe's view of this same file
   * when the caller has it (the job runner does), so ffprobe does not run twice.
   */
  async frame(input: string, outDir: string, opts: VideoFrameOptions, onProgress?: ProgressCallback, probed?: AvInfo): Promise<MediaOutput> {
    const deadline = new Deadline(this.ffmpeg.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = probed ?? (await this.ffmpeg.probe(abs, deadline));
      this.ffmpeg.checkTranscodable('video', info);
      // An `at` past the end (or within its last frame) finds no frame: then the last one.
      const at = opts.at === 'auto' || info.duration === undefined ? opts.at : Math.min(opts.at, info.duration);
      if (info.width && info.height)
        checkPlannedOutput('The frame', scaledFrame({ width: info.width, height: info.height }, opts.width), this.ffmpeg.maxInputPixels, { format: opts.format });
      out = await outputPath(outDir, opts.format === 'jpeg' ? 'jpg' : opts.format, abs);
      const plan = videoFramePlan(at, info.duration, opts.width, opts.format);
      await this.ffmpeg.run(abs, info, out, plan.output, deadline, 'video', onProgress, plan.input);
      if (!(await isFile(out)) && info.duration !== undefined) {
        const last = lastFramePlan(info.duration, opts.width, opts.format);
        await this.ffmpeg.run(abs, info, out, last.output, deadline, 'video', undefined, last.input);
      }
      if (!(await isFile(out))) throw new MediaError('unsupported_input', 'No frame could be decoded from the video.');
      const written = await this.images.header(out);
      if (written.format !== opts.format) throw new MediaError('processing_failed', 'The frame could not be verified.', written.format);
      return { path: out, format: opts.format, size: (await stat(out)).size, width: written.width, height: written.height };
    } catch (err) {
      if (out) await rm(out, { force: true });
      throw toMediaError(err, 'Video processing failed.');
    }
  }

  /**
   * A storyboard sprite: a tile every `interval` seconds, `columns` to a row (ffmpeg's fps, scale and
   * tile filters), encoded by sharp; with the tile geometry (storyboardGeometry: the tile limit may widen the interval).
   */
  async storyboard(input: string, outDir: string, opts: StoryboardOptions, onProgress?: ProgressCallback): Promise<StoryboardOutput> {
    let geometry: ReturnType<typeof storyboardGeometry> | undefined;
    let duration = 0;
    const sprite = await this.fromVideo(input, outDir, opts.format, async (abs, info, png, deadline) => {
      if (!info.duration || !info.width || !info.height) throw new MediaError('unsupported_input', 'The video does not state its duration or size.');
      duration = info.duration;
      geometry = storyboardGeometry(info.duration, { width: info.width, height: info.height }, opts, this.ffmpeg.maxInputPixels);
      await this.ffmpeg.run(abs, info, png, storyboardPlan(geometry), deadline, 'video', onProgress);
    });
    return { sprite, duration, ...geometry! };
  }

  /**
   * The storyboard's part: probe and check the video, let `draw` write one PNG with
   * ffmpeg, encode it to `format` with sharp (its report describes the output), remove the PNG.
   */
  private async fromVideo(
    input: string,
    outDir: string,
    format: 'jpeg' | 'webp' | 'png',
    draw: (abs: string, info: AvInfo, png: string, deadline: Deadline) => Promise<void>,
  ): Promise<MediaOutput> {
    const deadline = new Deadline(this.ffmpeg.timeLimitMs);
    let png: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = await this.ffmpeg.probe(abs, deadline);
      this.ffmpeg.checkTranscodable('video', info);
      await mkdir(resolve(outDir), { recursive: true });
      png = join(resolve(outDir), `frame-${randomBytes(4).toString('hex')}.png`);
      await draw(abs, info, png, deadline);
      if (!(await isFile(png))) throw new MediaError('unsupported_input', 'No frame could be decoded from the video.');
      return await this.images.transform(png, outDir, { format, quality: 82 });
    } catch (err) {
      throw toMediaError(err, 'Video processing failed.');
    } finally {
      if (png) await rm(png, { force: true });
    }
  }
}
