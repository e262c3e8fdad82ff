import { MediaError } from './media.errors';
import { checkPlannedOutput, scaledFrame, type Size } from './output-size';
import type { AudioFormat, TranscodeAudioOptions, TranscodeVideoOptions, TrimOptions, VideoFormat, VideoQuality } from './media.types';

/**
 * Pure argument building for ffmpeg/ffprobe. Nothing here runs a process.
 *
 * Safety: every ffmpeg/ffprobe run reads only local files (`-protocol_whitelist file`, input
 * given as `file:<absolute path>`) through a demuxer from DEMUXERS (`-format_whitelist`), so
 * playlists (hls, concat/ffconcat), image sequences (image2), tee, http and friends are refused
 * by ffmpeg itself before any of their logic runs.
 */

/**
 * Real media containers we accept as input, by libavformat demuxer name. An allowlist: anything
 * else (hls, concat, image2, tee, lavfi, data, subtitles, …) is refused.
 * `mov` covers mp4/m4a/3gp, `matroska` covers webm.
 */
export const DEMUXERS = ['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'flv', 'asf', 'ogg', 'mp3', 'wav', 'w64', 'flac', 'aac', 'aiff', 'caf', 'amr', 'ac3', 'eac3', 'wv'] as const;

/** `mov,mp4,m4a,3gp,3g2,mj2` → `mov` when any of its names is allowed; otherwise undefined. */
export function allowedDemuxer(formatName: string | undefined): string | undefined {
  if (!formatName) return undefined;
  const names = formatName.split(',');
  return names.some((n) => (DEMUXERS as readonly string[]).includes(n)) ? names[0] : undefined;
}

/** Options shared by every ffprobe/ffmpeg input: local files only, allowlisted demuxers only. */
export function safeInputArgs(): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', DEMUXERS.join(',')];
}

export function ffprobeArgs(absPath: string): string[] {
  return ['-v', 'error', ...safeInputArgs(), '-show_format', '-show_streams', '-of', 'json', `file:${absPath}`];
}

/**
 * Input options for a transcode: global quietness with periodic stats (progress comes from the
 * `time=` of those stats lines), the safe-input options, and the demuxer ffprobe found, forced so
 * ffmpeg cannot probe its way into a different one.
 */
export function ffmpegInputArgs(demuxer: string): string[] {
  return ['-nostdin', '-hide_banner', '-loglevel', 'error', '-stats', '-stats_period', '0.25', ...safeInputArgs(), '-f', demuxer];
}

/**
 * Quality → CRF (lower is better and larger). x264 and VP9 use different scales.
 * autoCompress on drops passes `crf: 28` explicitly.
 */
export const CRF: Record<'h264' | 'vp9', Record<VideoQuality, number>> = {
  h264: { high: 20, medium: 23, low: 28 },
  vp9: { high: 28, medium: 33, low: 40 },
};
const CRF_MAX = { h264: 51, vp9: 63 } as const;

/** Audio bitrate inside video outputs, per quality. */
const VIDEO_AUDIO_BITRATE: Record<'aac' | 'opus', Record<VideoQuality, string>> = {
  aac: { high: '192k', medium: '128k', low: '96k' },
  opus: { high: '128k', medium: '96k', low: '64k' },
};

export interface OutputPlan {
  ext: string;
  args: string[];
  /** Input options (a trim's `-ss`). */
  input?: string[];
  /** Seconds the output should last (a trimmed input's part), when known: progress and the truncation check use it. */
  duration?: number;
}

/** What a plan needs to know of the input (ffprobe's AvInfo). */
export interface InputShape {
  width?: number;
  height?: number;
  duration?: number;
}

/**
 * The cut `opts` asks of an input `inputDuration` seconds long: `-ss` before the input (ffmpeg
 * decodes from the keyframe before it, so the cut is exact when re-encoding), `-t` on the output,
 * and how long the output should be. A start at or past the end is `invalid_option`: nothing is left.
 * Numbers reach the command line only as numbers formatted here.
 */
export function trimPlan(opts: TrimOptions, inputDuration: number | undefined): { input: string[]; output: string[]; duration?: number } {
  const start = opts.start ?? 0;
  if (!(Number.isFinite(start) && start >= 0)) throw badOption('start must be a number of seconds, 0 or more.');
  if (opts.duration !== undefined && !(Number.isFinite(opts.duration) && opts.duration > 0)) throw badOption('duration must be a positive number of seconds.');
  if (start > 0 && inputDuration !== undefined && start >= inputDuration) {
    throw new MediaError('invalid_option', `start is ${start} s, at or past the end of the input (${Math.round(inputDuration * 100) / 100} s long).`);
  }
  const left = inputDuration === undefined ? undefined : inputDuration - start;
  const duration = opts.duration === undefined ? left : left === undefined ? opts.duration : Math.min(opts.duration, left);
  return { input: start > 0 ? ['-ss', start.toFixed(3)] : [], output: opts.duration !== undefined ? ['-t', opts.duration.toFixed(3)] : [], duration };
}

/**
 * The scale filter for a requested width and/or height, and the size it makes of `input`: one side
 * keeps the aspect ratio (rounded to even), both fit inside the box. Sides are rounded down to even
 * afterwards (EVEN_SIZE), so the size here is even too.
 */
export function videoScale(input: Size | undefined, width?: number, height?: number): { filter?: string; size?: Size } {
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 2)) throw badOption(`${name} must be an integer of 2 or more.`);
  }
  const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
  if (width === undefined && height === undefined) return { size: input };
  if (width !== undefined && height === undefined) return { filter: `scale=${width}:-2`, size: input && { width: even(width), height: scaledFrame(input, width).height } };
  if (width === undefined) {
    const size = input && { width: Math.max(2, Math.round((height! * input.width) / input.height / 2) * 2), height: even(height!) };
    return { filter: `scale=-2:${height}`, size };
  }
  const filter = `scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2`;
  if (!input) return { filter };
  const scale = Math.min(width / input.width, height! / input.height);
  return { filter, size: { width: even(input.width * scale), height: even(input.height * scale) } };
}

/** Even dimensions: yuv420p H.264 refuses odd widths/heights. */
const EVEN_SIZE = 'scale=trunc(iw/2)*2:trunc(ih/2)*2';

/**
 * `input`: what ffprobe found (size and duration), for the scale's planned size (checked against
 * `maxPixels` before ffmpeg runs: its scaler allocates the frame) and the trim.
 */
export function videoOutputPlan(opts: TranscodeVideoOptions, input: InputShape = {}, maxPixels = Infinity): OutputPlan {
  const format: VideoFormat = opts.format;
  const quality: VideoQuality = opts.quality ?? 'medium';
  if (!['mp4', 'webm', 'mov'].includes(format)) throw badOption(`Unsupported video format '${String(format)}'.`);
  if (!['low', 'medium', 'high'].includes(quality)) throw badOption(`Unsupported video quality '${String(quality)}'.`);
  const codec = format === 'webm' ? 'vp9' : 'h264';
  const crf = opts.crf ?? CRF[codec][quality];
  if (!Number.isInteger(crf) || crf < 0 || crf > CRF_MAX[codec]) {
    throw badOption(`crf must be an integer from 0 to ${CRF_MAX[codec]} for ${format}.`);
  }
  if (opts.fps !== undefined && !(Number.isFinite(opts.fps) && opts.fps > 0 && opts.fps <= 120)) throw badOption('fps must be a number above 0, at most 120.');
  const trim = trimPlan(opts, input.duration);
  const known = input.width && input.height ? { width: input.width, height: input.height } : undefined;
  const scale = videoScale(known, opts.width, opts.height);
  if (scale.filter && scale.size) checkPlannedOutput('The video', scale.size, maxPixels);
  const filters = [...(opts.fps !== undefined ? [`fps=${opts.fps}`] : []), ...(scale.filter ? [scale.filter] : []), EVEN_SIZE].join(',');
  const audio = opts.audio !== false;
  const streams = audio ? ['-map', '0:v:0', '-map', '0:a:0?'] : ['-map', '0:v:0', '-an'];
  const common = [...streams, '-map_metadata', '-1', '-map_chapters', '-1', ...trim.output, '-vf', filters, '-pix_fmt', 'yuv420p'];
  const plan = { input: trim.input, duration: trim.duration };
  if (codec === 'vp9') {
    return {
      ...plan,
      ext: 'webm',
      args: [
        ...common,
        // Realtime VP9 with row multithreading: roughly real-time speed for 720p on 2 cores.
        '-c:v',
        'libvpx-vp9',
        '-row-mt',
        '1',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-crf',
        String(crf),
        '-b:v',
        '0',
        ...(audio ? ['-c:a', 'libopus', '-b:a', VIDEO_AUDIO_BITRATE.opus[quality]] : []),
        '-f',
        'webm',
      ],
    };
  }
  return {
    ...plan,
    ext: format,
    args: [
      ...common,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      String(crf),
      ...(audio ? ['-c:a', 'aac', '-b:a', VIDEO_AUDIO_BITRATE.aac[quality]] : []),
      '-movflags',
      '+faststart',
      '-f',
      format,
    ],
  };
}

/** '128k' → 128; throws unless it is 32k..320k. */
export function parseBitrate(bitrate: string): number {
  const m = /^(\d{2,3})k$/.exec(bitrate);
  const kbps = m ? Number(m[1]) : NaN;
  if (!(kbps >= 32 && kbps <= 320)) throw badOption(`Bitrate must be between 32k and 320k, got '${bitrate}'.`);
  return kbps;
}

const AUDIO: Record<AudioFormat, { ext: string; codec: string[]; muxer: string[] }> = {
  mp3: { ext: 'mp3', codec: ['-c:a', 'libmp3lame'], muxer: ['-f', 'mp3'] },
  // AAC in an .m4a (MP4) container: unlike raw ADTS it records its duration.
  aac: { ext: 'm4a', codec: ['-c:a', 'aac'], muxer: ['-movflags', '+faststart', '-f', 'ipod'] },
  opus: { ext: 'opus', codec: ['-c:a', 'libopus'], muxer: ['-f', 'ogg'] },
  wav: { ext: 'wav', codec: ['-c:a', 'pcm_s16le'], muxer: ['-f', 'wav'] },
};

/** Sample rates each encoder takes; libopus knows five (48000 when the input has another: ffmpeg resamples). */
export const SAMPLE_RATES: Record<AudioFormat, readonly number[]> = {
  mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  aac: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  wav: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  opus: [8000, 12000, 16000, 24000, 48000],
};

/** `input`: the input's duration, for the trim. */
export function audioOutputPlan(opts: TranscodeAudioOptions, input: InputShape = {}): OutputPlan {
  const spec = AUDIO[opts.format];
  if (!spec) throw badOption(`Unsupported audio format '${String(opts.format)}'.`);
  const kbps = parseBitrate(opts.bitrate ?? '128k');
  const rate = opts.format === 'wav' ? [] : ['-b:a', `${kbps}k`];
  if (opts.channels !== undefined && opts.channels !== 1 && opts.channels !== 2) throw badOption('channels must be 1 or 2.');
  if (opts.sampleRate !== undefined && !SAMPLE_RATES[opts.format].includes(opts.sampleRate)) {
    throw badOption(`sampleRate ${opts.sampleRate} is not one ${opts.format} takes: ${SAMPLE_RATES[opts.format].join(', ')}.`);
  }
  const shape = [...(opts.channels !== undefined ? ['-ac', String(opts.channels)] : []), ...(opts.sampleRate !== undefined ? ['-ar', String(opts.sampleRate)] : [])];
  const trim = trimPlan(opts, input.duration);
  return {
    ext: spec.ext,
    input: trim.input,
    duration: trim.duration,
    args: ['-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1', ...trim.output, ...spec.codec, ...rate, ...shape, ...spec.muxer],
  };
}

/** Seconds from an ffmpeg stats line (`… time=00:01:02.50 …`), or undefined (no time, `N/A`, negative). */
export function parseStatsTime(line: string): number | undefined {
  const m = /time=\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(line);
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

export function isStatsLine(line: string): boolean {
  return /^\s*(frame|size)=/.test(line);
}

function badOption(message: string): MediaError {
  return new MediaError('processing_failed', message);
}

/** Frames `auto` compares with ffmpeg's `thumbnail` filter, sampled evenly over the first AUTO_FRAME_WINDOW_S seconds. */
export const AUTO_FRAME_SAMPLES = 30;
export const AUTO_FRAME_WINDOW_S = 60;

/**
 * The encoder of a still frame in each format, written by ffmpeg itself (no intermediate PNG for
 * sharp to re-encode). `bitexact`: no encoder version in the file (mjpeg writes one as a comment).
 */
const FRAME_ENCODERS: Record<'jpeg' | 'webp' | 'png', string[]> = {
  jpeg: ['-c:v', 'mjpeg', '-q:v', '3'],
  webp: ['-c:v', 'libwebp', '-quality', '82'],
  png: ['-c:v', 'png', '-pix_fmt', 'rgb24'],
};

function frameOutput(format: 'jpeg' | 'webp' | 'png'): string[] {
  return ['-an', '-sn', '-dn', '-map_metadata', '-1', ...FRAME_ENCODERS[format], '-flags:v', '+bitexact', '-f', 'image2'];
}

/**
 * One frame of a video in `format`: at `at` seconds (an input seek, exact since ffmpeg decodes
 * from the keyframe before it), or `auto`: AUTO_FRAME_SAMPLES frames sampled evenly over the first
 * minute, of which the `thumbnail` filter keeps the one closest to their average histogram — a
 * black fade-in or a flash is an outlier, not that frame.
 */
export function videoFramePlan(
  at: number | 'auto',
  duration: number | undefined,
  width: number | undefined,
  format: 'jpeg' | 'webp' | 'png',
): { input: string[]; output: string[] } {
  const size = width ? `scale=${width}:-2,setsar=1` : 'setsar=1';
  const one = ['-frames:v', '1', ...frameOutput(format)];
  if (at === 'auto') {
    const window = Math.min(duration ?? AUTO_FRAME_WINDOW_S, AUTO_FRAME_WINDOW_S);
    const rate = (AUTO_FRAME_SAMPLES / Math.max(window, 0.04)).toFixed(6);
    return { input: [], output: ['-t', String(window), '-vf', `fps=${rate},thumbnail=${AUTO_FRAME_SAMPLES},${size}`, ...one] };
  }
  return { input: ['-ss', at.toFixed(3)], output: ['-vf', size, ...one] };
}

/** The last frame, for an `at` past the end: the last seconds decoded, each frame written over the previous one. */
export function lastFramePlan(duration: number, width: number | undefined, format: 'jpeg' | 'webp' | 'png'): { input: string[]; output: string[] } {
  const size = width ? `scale=${width}:-2,setsar=1` : 'setsar=1';
  return {
    input: ['-ss', Math.max(0, duration - 3).toFixed(3)],
    output: ['-vf', size, '-update', '1', ...frameOutput(format)],
  };
}

/** At most this many tiles in a storyboard, and a sprite at most this many pixels tall (WebP's limit is 16 383). */
export const STORYBOARD_MAX_TILES = 100;
export const STORYBOARD_MAX_SIDE = 16_000;

export interface StoryboardGeometry {
  /** Seconds between tiles: as asked, or wider when the tile limit required it. */
  interval: number;
  tiles: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/**
 * The storyboard's layout for a video of `duration` seconds and `width`×`height` pixels: one tile
 * every `interval` seconds from 0, widened so that there are at most STORYBOARD_MAX_TILES and the
 * sprite stays within STORYBOARD_MAX_SIDE pixels tall and `maxPixels` in all (ffmpeg's tile filter
 * allocates the whole sprite). When not even one row of tiles fits, `invalid_option` naming its size:
 * this is checked before ffmpeg runs.
 */
export function storyboardGeometry(
  duration: number,
  video: { width: number; height: number },
  opts: { interval: number; columns: number; width: number },
  maxPixels: number,
): StoryboardGeometry {
  const { width: tileWidth, height: tileHeight } = scaledFrame(video, opts.width);
  const row = { width: tileWidth * opts.columns, height: tileHeight };
  const tilesAtMost = Math.max(1, Math.ceil(duration / opts.interval));
  const inFirstRow = Math.min(opts.columns, tilesAtMost);
  const firstRow = { width: tileWidth * inFirstRow, height: tileHeight };
  checkPlannedOutput(`One row of ${inFirstRow} tile${inFirstRow === 1 ? '' : 's'} of ${tileWidth}×${tileHeight}`, firstRow, maxPixels, { maxSide: STORYBOARD_MAX_SIDE });
  const maxRows = Math.floor(Math.min(STORYBOARD_MAX_SIDE / tileHeight, maxPixels / (row.width * row.height)));
  // Not even one full row fits, but the few tiles this video has do (checked above): one row of them.
  const fitting = maxRows >= 1 ? opts.columns * maxRows : Math.floor(maxPixels / (tileWidth * tileHeight));
  const maxTiles = Math.max(1, Math.min(STORYBOARD_MAX_TILES, fitting));
  let interval = opts.interval;
  if (Math.ceil(duration / interval) > maxTiles) interval = Math.ceil((duration / maxTiles) * 1000) / 1000;
  const tiles = Math.max(1, Math.min(maxTiles, Math.ceil(duration / interval)));
  const columns = Math.min(opts.columns, tiles);
  return { interval, tiles, columns, rows: Math.ceil(tiles / columns), tileWidth, tileHeight };
}

/** One frame every `interval` seconds (the fps filter), scaled to the tile, laid out by the tile filter into one PNG. */
export function storyboardPlan(g: StoryboardGeometry): string[] {
  const fps = `1000/${Math.round(g.interval * 1000)}`;
  return [
    '-an',
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-vf',
    `fps=${fps},scale=${g.tileWidth}:${g.tileHeight},setsar=1,tile=${g.columns}x${g.rows}`,
    '-frames:v',
    '1',
    '-c:v',
    'png',
    '-pix_fmt',
    'rgb24',
    '-f',
    'image2',
  ];
}
