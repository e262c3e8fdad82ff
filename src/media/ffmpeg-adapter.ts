import { execFile } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import ffmpeg from 'fluent-ffmpeg';
import { Deadline } from './deadline';
import { ffmpegInputArgs, ffprobeArgs, isStatsLine, type OutputPlan, parseStatsTime } from './ffmpeg-args';
import { type AvInfo, parseFfprobe } from './ffprobe-data';
import { formatMegapixels, MediaError, toMediaError } from './media.errors';
import { capitalise, checkInput, outputPath, safeProgress, tail, truncated, withDetail } from './media-files';
import type { MediaOutput, ProgressCallback } from './media.types';

/**
 * ffprobe and ffmpeg on a local file, through the allowlisted demuxers and protocols
 * (ffmpeg-args.ts), within a Deadline: what the video and audio adapters share, transcoding included.
 */
export class FfmpegAdapter {
  constructor(
    readonly ffmpegPath: string,
    private readonly ffprobePath: string,
    readonly timeLimitMs: number,
    readonly maxInputPixels: number,
  ) {}

  /**
   * Transcodes to the plan's format (the plan made from ffprobe's view of the input: its size and
   * duration), then ffprobes the output to verify it is the `kind` and `expectedFormat` asked for
   * and (video) not cut short by a truncated input.
   */
  async transcode(
    kind: 'video' | 'audio',
    input: string,
    outDir: string,
    makePlan: (info: AvInfo) => OutputPlan,
    expectedFormat: string,
    onProgress?: ProgressCallback,
  ): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    let out: string | undefined;
    try {
      const abs = await checkInput(input);
      const info = await this.probe(abs, deadline);
      this.checkTranscodable(kind, info);
      const plan = makePlan(info);
      // A trimmed output is measured against the part of the input it covers.
      const expected = plan.duration ?? info.duration;

      out = await outputPath(outDir, plan.ext, abs);
      await this.run(abs, { ...info, duration: expected }, out, plan.args, deadline, kind, onProgress, plan.input);

      const result = await this.probe(out, deadline);
      if (result.kind !== kind || result.format !== expectedFormat) {
        throw new MediaError('processing_failed', `The ${kind} output could not be verified.`, `${result.kind}/${result.format}`);
      }
      // A truncated input usually decodes "successfully" up to the cut; the output then is much shorter.
      if (kind === 'video' && expected && result.duration !== undefined && result.duration < expected * 0.5) {
        throw truncated(kind, `input ${expected}s, output ${result.duration}s`);
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

  checkTranscodable(kind: 'video' | 'audio', info: AvInfo): void {
    if (kind === 'video' && info.kind !== 'video') throw new MediaError('unsupported_input', 'The file has no video stream.');
    if (kind === 'audio' && !info.audioCodec) throw new MediaError('unsupported_input', 'The file has no audio stream.');
    if (kind === 'video' && (info.width ?? 0) * (info.height ?? 0) > this.maxInputPixels) {
      throw new MediaError('unsupported_input', `The video is ${info.width}×${info.height} pixels, which exceeds the limit of ${formatMegapixels(this.maxInputPixels)}.`);
    }
  }

  /** ffprobe a local file through the allowlisted demuxers; not media → `unsupported_input`. */
  probe(abs: string, deadline: Deadline): Promise<AvInfo> {
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

  run(
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
