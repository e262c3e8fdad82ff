import { rm, stat, writeFile } from 'node:fs/promises';
import { Deadline } from './deadline';
import type { FfmpegAdapter } from './ffmpeg-adapter';
import { audioOutputPlan } from './ffmpeg-args';
import type { AvInfo } from './ffprobe-data';
import type { ImageAdapter } from './image-adapter';
import { MediaError, toMediaError } from './media.errors';
import { checkInput, outputPath, safeProgress } from './media-files';
import type { AudioWaveformOptions, MediaOutput, ProgressCallback, TranscodeAudioOptions } from './media.types';
import { checkPlannedOutput } from './output-size';
import { decodePcm } from './pcm-stream';
import { drawWaveform, PEAK_BLOCKS, PeakAccumulator, waveformJson } from './waveform';

/** Audio: transcoding with ffmpeg, and waveforms computed from ffmpeg's PCM as it decodes. */
export class AudioAdapter {
  constructor(
    private readonly ffmpeg: FfmpegAdapter,
    private readonly images: ImageAdapter,
  ) {}

  /** mp3 (libmp3lame CBR), aac (.m4a), opus (.opus, Ogg), wav (PCM s16le); channels, sample rate and trim as asked. */
  transcode(input: string, outDir: string, opts: TranscodeAudioOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.ffmpeg.transcode('audio', input, outDir, (info) => audioOutputPlan(opts, info), opts.format, onProgress);
  }

  /**
   * The peaks of the first audio stream, mixed to mono at its own sample rate, computed while
   * ffmpeg decodes (the PCM is never held whole): BBC audiowaveform JSON, or a PNG drawn by sharp.
   */
  async waveform(input: string, outDir: string, opts: AudioWaveformOptions, onProgress?: ProgressCallback, probed?: AvInfo): Promise<MediaOutput> {
    const deadline = new Deadline(this.ffmpeg.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = probed ?? (await this.ffmpeg.probe(abs, deadline));
      this.ffmpeg.checkTranscodable('audio', info);
      const sampleRate = info.sampleRate ?? 44_100;
      const points = opts.format === 'png' ? (opts.width ?? 1800) : (opts.points ?? 800);
      // At least two blocks per point: every point gets peaks of its own, however many are asked for.
      const peaks = new PeakAccumulator(Math.max(PEAK_BLOCKS, 2 * points));
      await decodePcm(
        this.ffmpeg.ffmpegPath,
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
        checkPlannedOutput('The waveform', { width, height }, this.ffmpeg.maxInputPixels);
        out = await outputPath(outDir, 'png', abs);
        const raster = drawWaveform(peaks.finish(width), height, opts.color ?? '#3a7bd5');
        const written = await this.images.writePng(raster, { width, height }, out);
        safeProgress(onProgress, 100);
        return { path: out, format: 'png', ...written, duration };
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
}
