import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeVideo } from '../../test/support/media-fixtures';
import { MediaError } from './media.errors';
import { MediaEngine } from './media-engine';
import { runStoppable } from './stop-signal';

/** Video and audio, with real files made by ffmpeg's lavfi sources and checked with a separate ffprobe. */

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH || 'ffprobe';

let dir: string;
let video: string; // 2 s, 160×120, H.264 + AAC, moov at the end
let fastStartVideo: string; // same, moov first
let longVideo: string; // 20 s, 640×360, for progress and time limits
let heavyVideo: string; // 10 s, 1280×720 busy pattern: takes seconds to encode, to be killed mid-way
let silentVideo: string; // 1 s, no audio
let wav: string; // 3 s, 44.1 kHz stereo
const repo = new MediaEngine();

interface Probed {
  format: { format_name: string; duration: string; bit_rate?: string; tags?: Record<string, string> };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; bit_rate?: string; sample_rate?: string }[];
}
async function ffprobe(path: string): Promise<Probed> {
  const { stdout } = await run(FFPROBE, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path]);
  return JSON.parse(stdout) as Probed;
}
const stream = (p: Probed, type: string) => p.streams.find((s) => s.codec_type === type);

async function outDir(name: string): Promise<string> {
  return mkdtemp(join(dir, `${name}-`));
}

async function expectMediaError(p: Promise<unknown>, code: MediaError['code']): Promise<MediaError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  expect((err as MediaError).code).toBe(code);
  expect((err as MediaError).message).not.toMatch(/\n|ffmpeg version|Stream #/);
  return err as MediaError;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dropline-media-av-'));
  video = join(dir, 'clip.mp4');
  fastStartVideo = join(dir, 'clip-faststart.mp4');
  longVideo = join(dir, 'long.mp4');
  silentVideo = join(dir, 'silent.mp4');
  heavyVideo = join(dir, 'heavy.mp4');
  wav = join(dir, 'tone.wav');
  await Promise.all([
    makeVideo(video, 2),
    makeVideo(fastStartVideo, 2, { extra: ['-movflags', '+faststart'] }),
    makeVideo(longVideo, 20, { size: '640x360' }),
    makeVideo(silentVideo, 1, { audio: false }),
    makeVideo(heavyVideo, 10, { size: '1280x720', source: 'testsrc2', audio: false, extra: ['-crf', '35'] }),
    run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-ac', '2', '-t', '3', wav]),
  ]);
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('transcodeVideo: video-convert', () => {
  it('mp4: H.264 + AAC, faststart, same size and duration', async () => {
    const out = await outDir('mp4');
    const result = await repo.transcodeVideo(video, out, { format: 'mp4' });
    expect(result.path).toBe(join(out, 'output.mp4'));
    const p = await ffprobe(result.path);
    expect(p.format.format_name).toContain('mp4');
    expect(p.format.tags?.major_brand).toBe('isom');
    expect(stream(p, 'video')).toMatchObject({ codec_name: 'h264', width: 160, height: 120 });
    expect(stream(p, 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(Number(p.format.duration)).toBeCloseTo(2, 0);
    const bytes = await readFile(result.path);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat')); // +faststart
    expect(bytes.toString('latin1')).toContain('crf=23.0'); // x264 records its settings; medium → 23
    expect(result).toEqual({
      path: result.path,
      format: 'mp4',
      width: 160,
      height: 120,
      duration: Number(p.format.duration),
      size: (await stat(result.path)).size,
    });
  });

  it('webm: VP9 + Opus', async () => {
    const result = await repo.transcodeVideo(video, await outDir('webm'), { format: 'webm', quality: 'low' });
    const p = await ffprobe(result.path);
    expect(p.format.format_name).toBe('matroska,webm');
    expect(stream(p, 'video')).toMatchObject({ codec_name: 'vp9', width: 160, height: 120 });
    expect(stream(p, 'audio')).toMatchObject({ codec_name: 'opus' });
    expect(Number(p.format.duration)).toBeCloseTo(2, 0);
    expect(result).toMatchObject({ format: 'webm', width: 160, height: 120 });
    expect(result.path.endsWith('output.webm')).toBe(true);
  });

  it('mov: H.264 in a QuickTime container; explicit crf overrides quality (autoCompress: 28)', async () => {
    const result = await repo.transcodeVideo(video, await outDir('mov'), { format: 'mov', quality: 'high', crf: 28 });
    const p = await ffprobe(result.path);
    expect(p.format.tags?.major_brand?.trim()).toBe('qt');
    expect(stream(p, 'video')?.codec_name).toBe('h264');
    expect((await readFile(result.path)).toString('latin1')).toContain('crf=28.0');
    expect(result.format).toBe('mov');
  });

  it('a video without audio still converts', async () => {
    const result = await repo.transcodeVideo(silentVideo, await outDir('silent'), { format: 'webm' });
    const p = await ffprobe(result.path);
    expect(stream(p, 'audio')).toBeUndefined();
    expect(result).toMatchObject({ format: 'webm', width: 160, height: 120 });
  });

  it('reports real progress, increasing, ending at 100', async () => {
    const seen: number[] = [];
    const result = await repo.transcodeVideo(longVideo, await outDir('progress'), { format: 'mp4', quality: 'low' }, (p) => seen.push(p));
    expect(result.duration).toBeCloseTo(20, 0);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    expect(seen[seen.length - 1]).toBe(100);
  }, 30_000);

  it('rejects bad options before running anything', async () => {
    await expectMediaError(repo.transcodeVideo(video, await outDir('crf'), { format: 'mp4', crf: 60 }), 'processing_failed');
    await expectMediaError(repo.transcodeVideo(video, await outDir('fmt'), { format: 'avi' as never }), 'processing_failed');
  });
});

describe('transcodeAudio: audio-compress and auto-conversion', () => {
  it('mp3 at 64k', async () => {
    const result = await repo.transcodeAudio(wav, await outDir('mp3'), { format: 'mp3', bitrate: '64k' });
    const p = await ffprobe(result.path);
    expect(p.format.format_name).toBe('mp3');
    expect(stream(p, 'audio')?.codec_name).toBe('mp3');
    expect(Number(stream(p, 'audio')?.bit_rate)).toBeGreaterThan(62_000);
    expect(Number(stream(p, 'audio')?.bit_rate)).toBeLessThan(66_000);
    expect(Number(p.format.duration)).toBeCloseTo(3, 0);
    expect(result).toMatchObject({ format: 'mp3', bitrate: '64k' });
    expect(result.width).toBeUndefined();
    expect(result.path.endsWith('output.mp3')).toBe(true);
  });

  it.each([
    ['aac', 'm4a', 'aac', 'mov,mp4,m4a,3gp,3g2,mj2'],
    ['opus', 'opus', 'opus', 'ogg'],
    ['wav', 'wav', 'pcm_s16le', 'wav'],
  ] as const)('%s', async (format, ext, codec, container) => {
    const result = await repo.transcodeAudio(wav, await outDir(format), { format, bitrate: '96k' });
    const p = await ffprobe(result.path);
    expect(p.format.format_name).toBe(container);
    expect(stream(p, 'audio')?.codec_name).toBe(codec);
    expect(Number(p.format.duration)).toBeCloseTo(3, 0);
    expect(result.format).toBe(format);
    expect(result.path.endsWith(`output.${ext}`)).toBe(true);
    if (format === 'aac') expect(result.bitrate).toMatch(/^(9\d|10\d)k$/);
  });

  it('extracts and converts the audio of a video file', async () => {
    const result = await repo.transcodeAudio(video, await outDir('from-video'), { format: 'mp3', bitrate: '128k' });
    const p = await ffprobe(result.path);
    expect(stream(p, 'video')).toBeUndefined();
    expect(result).toMatchObject({ format: 'mp3', bitrate: '128k' });
  });

  it('a video without audio is unsupported_input; bitrates outside 32k..320k are refused', async () => {
    const err = await expectMediaError(repo.transcodeAudio(silentVideo, await outDir('noaudio'), { format: 'mp3' }), 'unsupported_input');
    expect(err.message).toBe('The file has no audio stream.');
    await expectMediaError(repo.transcodeAudio(wav, await outDir('br'), { format: 'mp3', bitrate: '16k' }), 'processing_failed');
  });
});

describe('probe', () => {
  it('video, audio', async () => {
    // `av`: ffprobe's description, handed forward to the operation (no second ffprobe run).
    expect(await repo.probe(video)).toEqual({
      kind: 'video',
      format: 'mp4',
      width: 160,
      height: 120,
      duration: expect.closeTo(2, 0),
      av: expect.objectContaining({ demuxer: 'mov', videoCodec: 'h264', frameRate: 25 }),
    });
    expect(await repo.probe(wav)).toEqual({
      kind: 'audio',
      format: 'wav',
      duration: expect.closeTo(3, 1),
      av: expect.objectContaining({ demuxer: 'wav', channels: 2, sampleRate: 44_100 }),
    });
  });
});

describe('safety and errors', () => {
  it('a text file is unsupported_input', async () => {
    const txt = join(dir, 'notes.txt');
    await writeFile(txt, 'this is not a video\n'.repeat(100));
    const out = await outDir('txt');
    const err = await expectMediaError(repo.transcodeVideo(txt, out, { format: 'mp4' }), 'unsupported_input');
    expect(err.message).toBe('The file is not a supported video or audio file, or it is corrupt.');
    expect(await readdir(out)).toEqual([]);
  });

  it('an image is not a video', async () => {
    const png = join(dir, 'frame.png');
    await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', png]);
    await expectMediaError(repo.transcodeVideo(png, await outDir('png'), { format: 'mp4' }), 'unsupported_input');
  });

  it('a truncated mp4 (moov at the end) fails cleanly', async () => {
    const bytes = await readFile(video);
    const cut = join(dir, 'cut.mp4');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const out = await outDir('cut');
    await expectMediaError(repo.transcodeVideo(cut, out, { format: 'mp4' }), 'unsupported_input');
    expect(await readdir(out)).toEqual([]);
  });

  it('a truncated faststart mp4 (decodes up to the cut) fails cleanly', async () => {
    const bytes = await readFile(fastStartVideo);
    const cut = join(dir, 'cut-faststart.mp4');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const out = await outDir('cut-fs');
    const err = await expectMediaError(repo.transcodeVideo(cut, out, { format: 'webm' }), 'unsupported_input');
    expect(err.message).toBe('The video file is truncated or corrupt.');
    expect(await readdir(out)).toEqual([]);
  });

  it.each([
    ['hls playlist', 'list.m3u8', (v: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${v}\n#EXT-X-ENDLIST\n`],
    ['ffconcat script', 'list.txt', (v: string) => `ffconcat version 1.0\nfile '${v}'\n`],
  ])('refuses a %s pointing at a real file', async (_name, file, body) => {
    const path = join(dir, file);
    await writeFile(path, body(video));
    const out = await outDir('playlist');
    await expectMediaError(repo.transcodeVideo(path, out, { format: 'mp4' }), 'unsupported_input');
    await expectMediaError(repo.transcodeAudio(path, out, { format: 'mp3' }), 'unsupported_input');
    // Plain text to every media tool; only document-convert would take it.
    expect(await repo.probe(path)).toEqual({ kind: 'document', format: 'txt' });
    expect(await readdir(out)).toEqual([]);
  });

  it('a 50 ms time limit yields timeout and no output', async () => {
    const quick = new MediaEngine({ timeLimitMs: 50 });
    const out = await outDir('t50');
    const err = await expectMediaError(quick.transcodeVideo(longVideo, out, { format: 'webm' }), 'timeout');
    expect(err.message).toBe('Processing exceeded the time limit of 50 ms.');
    expect(await readdir(out)).toEqual([]);
  });

  it('ffmpeg is killed mid-transcode at the time limit and its partial output is deleted', async () => {
    // The limit passes only once ffmpeg has reported progress: with a real 1 s limit a loaded
    // machine spent the whole second on ffprobe and spawning, and ffmpeg was killed before its
    // first stats line (seen: 0). Only setTimeout (the kill timer) is faked; the clock is real.
    jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'] });
    try {
      const limited = new MediaEngine({ timeLimitMs: 600_000 });
      const out = await outDir('t-mid');
      const seen: number[] = [];
      const onProgress = (p: number) => {
        seen.push(p);
        if (seen.length === 1) jest.advanceTimersByTime(600_000); // the limit passes mid-transcode
      };
      const err = await expectMediaError(limited.transcodeVideo(heavyVideo, out, { format: 'mp4', quality: 'high' }, onProgress), 'timeout');
      expect(err.message).toBe('Processing exceeded the time limit of 10 min.');
      expect(seen.length).toBeGreaterThan(0); // ffmpeg was really running
      expect(seen[seen.length - 1]).toBeLessThan(100);
      expect(await readdir(out)).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a run stopped mid-transcode (its job canceled) kills ffmpeg at once: canceled, partial output deleted', async () => {
    const out = await outDir('stopped');
    const stop = new AbortController();
    const seen: number[] = [];
    const started = Date.now();
    const err = await expectMediaError(
      runStoppable(stop.signal, () =>
        repo.transcodeVideo(heavyVideo, out, { format: 'mp4', quality: 'high' }, (p) => {
          if (seen.push(p) === 1) stop.abort(); // stopped once ffmpeg is really running
        }),
      ),
      'canceled',
    );
    expect(err.message).toBe('Processing was stopped: the job was canceled.');
    expect(err.detail).toMatch(/SIGKILL/); // killed mid-way, not stopped after a finished encode
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[seen.length - 1]).toBeLessThan(100);
    expect(await readdir(out)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(30_000);
    // Stopped before it began: nothing is started at all.
    const early = new AbortController();
    early.abort();
    await expectMediaError(
      runStoppable(early.signal, () => repo.transcodeVideo(video, out, { format: 'mp4', quality: 'low' })),
      'canceled',
    );
  });
});
