import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Deadline } from './deadline';
import type { FfmpegAdapter } from './ffmpeg-adapter';
import { lastFramePlan, storyboardGeometry, storyboardPlan, videoFramePlan, videoOutputPlan } from './ffmpeg-args';
import type { AvInfo } from './ffprobe-data';
import type { ImageAdapter } from './image-adapter';
import { MediaError, toMediaError } from './media.errors';
import { checkInput, isFile } from './media-files';
import type { MediaOutput, ProgressCallback, StoryboardOptions, StoryboardOutput, TranscodeVideoOptions, VideoFrameOptions } from './media.types';
import { checkPlannedOutput, scaledFrame } from './output-size';

/** Video: transcoding with ffmpeg, and frames (a poster, a storyboard sprite) drawn by ffmpeg and encoded by sharp. */
export class VideoAdapter {
  constructor(
    private readonly ffmpeg: FfmpegAdapter,
    private readonly images: ImageAdapter,
  ) {}

  /** mp4/mov: H.264 + AAC (+faststart); webm: VP9 + Opus; scaled, trimmed, resampled in time as asked. See CRF in ffmpeg-args.ts. */
  transcode(input: string, outDir: string, opts: TranscodeVideoOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.ffmpeg.transcode('video', input, outDir, (info) => videoOutputPlan(opts, info, this.ffmpeg.maxInputPixels), opts.format, onProgress);
  }

  /** One frame of a video as jpeg/webp/png (a poster): ffmpeg picks and scales it, sharp encodes it. */
  async frame(input: string, outDir: string, opts: VideoFrameOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    const maxPixels = this.ffmpeg.maxInputPixels;
    return this.fromVideo(input, outDir, opts.format, async (abs, info, png, deadline) => {
      // An `at` past the end (or within its last frame) finds no frame: then the last one.
      const at = opts.at === 'auto' || info.duration === undefined ? opts.at : Math.min(opts.at, info.duration);
      if (info.width && info.height) checkPlannedOutput('The frame', scaledFrame({ width: info.width, height: info.height }, opts.width), maxPixels, { format: opts.format });
      const plan = videoFramePlan(at, info.duration, opts.width);
      await this.ffmpeg.run(abs, info, png, plan.output, deadline, 'video', onProgress, plan.input);
      if (!(await isFile(png)) && info.duration !== undefined) {
        const last = lastFramePlan(info.duration, opts.width);
        await this.ffmpeg.run(abs, info, png, last.output, deadline, 'video', undefined, last.input);
      }
    });
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
   * The frame operations' common part: probe and check the video, let `draw` write one PNG with
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
