import { spawn } from 'node:child_process';
import type { Deadline } from './deadline';
import { ffmpegInputArgs, isStatsLine, parseStatsTime } from './ffmpeg-args';
import { MediaError } from './media.errors';

/**
 * Decodes the first audio stream of a local file to 16-bit mono PCM at `sampleRate` and hands the
 * samples to `onSamples` as ffmpeg writes them (its stdout): the decoded audio is never held whole.
 * ffmpeg runs in its own process group, killed as a group (SIGKILL) past the deadline.
 */
export function decodePcm(
  ffmpegPath: string,
  abs: string,
  demuxer: string,
  sampleRate: number,
  deadline: Deadline,
  onSamples: (samples: Int16Array) => void,
  onTime?: (seconds: number) => void,
): Promise<void> {
  deadline.require();
  const args = [
    ...ffmpegInputArgs(demuxer),
    '-i',
    `file:${abs}`,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(sampleRate),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    'pipe:1',
  ];
  return new Promise((done, fail) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const errors: string[] = [];
    let timedOut = false;
    let partial = false;
    let carry: Buffer | undefined;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const unwatch = deadline.watch(() => {
      timedOut = true;
      killGroup();
    });

    child.stdout.on('data', (chunk: Buffer) => {
      let buf = carry ? Buffer.concat([carry, chunk]) : chunk;
      carry = undefined;
      if (buf.length % 2) {
        carry = buf.subarray(buf.length - 1);
        buf = buf.subarray(0, buf.length - 1);
      }
      // An Int16Array needs an even byte offset; a pooled Buffer may not have one.
      if (buf.byteOffset % 2) buf = Buffer.from(buf);
      try {
        onSamples(new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2));
      } catch (err) {
        killGroup();
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    let line = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      // ffmpeg ends stats lines with \r, messages with \n.
      const parts = (line + text).split(/[\r\n]/);
      line = parts.pop() ?? '';
      for (const l of parts) {
        if (!l) continue;
        if (isStatsLine(l)) {
          const t = parseStatsTime(l);
          if (t !== undefined) onTime?.(t);
          continue;
        }
        if (/partial file/i.test(l)) partial = true;
        if (errors.push(l) > 20) errors.shift();
      }
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      unwatch();
      fail(err.code === 'ENOENT' ? new MediaError('processing_failed', 'ffmpeg is not available on this server.', err.message) : err);
    });
    child.on('close', (code) => {
      unwatch();
      const detail = errors.join('\n');
      if (timedOut) return fail(new MediaError(deadline.error().code, deadline.error().message, detail));
      if (partial || (code !== 0 && /invalid data|moov atom|partial file|corrupt|truncat|end of file/i.test(detail))) {
        return fail(new MediaError('unsupported_input', 'The audio file is truncated or corrupt.', detail));
      }
      if (code !== 0) return fail(new MediaError('processing_failed', 'Audio decoding failed.', detail));
      done();
    });
  });
}
