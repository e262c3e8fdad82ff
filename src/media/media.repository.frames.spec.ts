import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { makeVideo } from '../../test/support/media-fixtures';
import { MediaError } from './media.errors';
import { MediaEngine } from './media-engine';

/** Frames out of videos (posters, storyboards) with real files made by ffmpeg's lavfi sources, decoded by sharp. */

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const repo = new MediaEngine();
let dir: string;
let clip: string; // 2 s, 160×120 testsrc
let fade: string; // 1 s black, then 2 s of testsrc
let heavy: string; // 10 s, 1280×720 busy pattern
let tall: string; // 3 s, 2×1600: a few KB that scale to gigantic frames

async function outDir(name: string): Promise<string> {
  return mkdtemp(join(dir, `${name}-`));
}

async function mediaError(p: Promise<unknown>): Promise<MediaError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  return err as MediaError;
}

/** Mean brightness of the decoded image, 0..255. */
async function brightness(path: string): Promise<number> {
  const { channels } = await sharp(path).stats();
  return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
}

/** Processes whose command line names `path`: a killed ffmpeg must not be among them. */
async function processesNaming(path: string): Promise<number> {
  let found = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(path)) found++;
  }
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dropline-media-frames-'));
  clip = join(dir, 'clip.mp4');
  fade = join(dir, 'fade.mp4');
  heavy = join(dir, 'heavy.mp4');
  tall = join(dir, 'tall.mp4');
  await Promise.all([
    makeVideo(tall, 3, { size: '2x1600', audio: false }),
    makeVideo(clip, 2, { audio: false }),
    run(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=black:size=160x120:rate=25:duration=1[a];testsrc=size=160x120:rate=25:duration=2[b];[a][b]concat=n=2:v=1:a=0'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', fade],
    ]),
    makeVideo(heavy, 10, { size: '1280x720', source: 'testsrc2', audio: false }),
  ]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('MediaEngine.videoFrame', () => {
  it('the frame at `at` seconds, scaled to `width`, in each format', async () => {
    for (const format of ['jpeg', 'webp', 'png'] as const) {
      const out = await outDir(`frame-${format}`);
      const frame = await repo.videoFrame(clip, out, { at: 1, width: 80, format });
      const meta = await sharp(frame.path).metadata();
      expect(meta).toMatchObject({ format, width: 80, height: 60 });
      expect(frame).toMatchObject({ format, width: 80, height: 60, size: (await stat(frame.path)).size });
      expect(await readdir(out)).toEqual([frame.path.split('/').pop()]); // the intermediate PNG is gone
    }
  });

  it('`at` past the end gives the last frame; without `width` the video keeps its size', async () => {
    const frame = await repo.videoFrame(clip, await outDir('late'), { at: 3600, format: 'jpeg' });
    expect(await sharp(frame.path).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 120 });
  });

  it('`auto` does not pick the black fade-in, which the first frame is', async () => {
    const first = await repo.videoFrame(fade, await outDir('first'), { at: 0, format: 'png' });
    expect(await brightness(first.path)).toBeLessThan(20);
    const auto = await repo.videoFrame(fade, await outDir('auto'), { at: 'auto', format: 'png' });
    expect(await brightness(auto.path)).toBeGreaterThan(60);
  });

  it('a truncated video is unsupported_input and leaves nothing behind', async () => {
    const whole = await readFile(clip);
    const cut = join(dir, 'cut.mp4');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 3)));
    const out = await outDir('cut');
    const err = await mediaError(repo.videoFrame(cut, out, { at: 1, format: 'jpeg' }));
    expect(err.code).toBe('unsupported_input');
    expect(await readdir(out)).toEqual([]);
  });
});

describe('MediaEngine.videoStoryboard', () => {
  it('one tile per interval, laid out in columns, in a sprite of that size', async () => {
    const out = await outDir('board');
    const board = await repo.videoStoryboard(clip, out, { interval: 0.5, columns: 3, width: 40, format: 'jpeg' });
    expect(board).toMatchObject({ tiles: 4, columns: 3, rows: 2, tileWidth: 40, tileHeight: 30, interval: 0.5 });
    expect(board.duration).toBeCloseTo(2, 1);
    expect(await sharp(board.sprite.path).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 60 });
    // Tile 0 (testsrc at 0 s) and tile 3 (at 1.5 s) differ: real frames, not copies.
    const tile = (i: number) =>
      sharp(board.sprite.path)
        .extract({ left: (i % 3) * 40, top: Math.floor(i / 3) * 30, width: 40, height: 30 })
        .raw()
        .toBuffer();
    expect((await tile(0)).equals(await tile(3))).toBe(false);
  });

  it('a long video at a short interval is bounded to 100 tiles by widening the interval', async () => {
    const board = await repo.videoStoryboard(heavy, await outDir('many'), { interval: 0.05, columns: 10, width: 32, format: 'webp' });
    expect(board.tiles).toBeLessThanOrEqual(100);
    expect(board.interval).toBeGreaterThanOrEqual(0.1);
    expect(board.tiles * board.interval).toBeGreaterThanOrEqual(board.duration - 1e-6);
    expect(await sharp(board.sprite.path).metadata()).toMatchObject({ format: 'webp', width: 320, height: board.rows * 18 });
  }, 120_000);

  it('the time limit kills ffmpeg (no process left) and removes what it wrote', async () => {
    jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'] });
    try {
      const limited = new MediaEngine({ timeLimitMs: 600_000 });
      const out = await outDir('killed');
      let seen = 0;
      const err = await mediaError(
        limited.videoStoryboard(heavy, out, { interval: 0.1, columns: 10, width: 320, format: 'jpeg' }, () => {
          if (++seen === 1) jest.advanceTimersByTime(600_000); // the limit passes mid-run
        }),
      );
      expect(err.code).toBe('timeout');
      expect(seen).toBeGreaterThan(0); // ffmpeg was really running
      expect(await processesNaming(out)).toBe(0);
      expect(await readdir(out)).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  }, 120_000);
});

describe('planned output sizes, checked before ffmpeg runs', () => {
  // ffprobe runs (the size comes from it); an ffmpeg that does not exist shows that none was started.
  const noFfmpeg = new MediaEngine({ ffmpegPath: join(tmpdir(), 'no-such-ffmpeg') });

  it('a storyboard whose one tile is 480×384 000 is invalid_option naming the size; nothing is written', async () => {
    const out = await outDir('tall-board');
    const err = await mediaError(noFfmpeg.videoStoryboard(tall, out, { interval: 0.5, columns: 1, width: 480, format: 'jpeg' }));
    expect(err).toMatchObject({
      code: 'invalid_option',
      message: 'One row of 1 tile of 480×384000 would be 480×384000 pixels (184.3 megapixels), which exceeds the limit of 100 megapixels.',
    });
    expect(await readdir(out)).toEqual([]);
  });

  it('a thumbnail 480 wide of a 2×1600 video is invalid_option; a narrow one is made', async () => {
    const out = await outDir('tall-frame');
    const err = await mediaError(noFfmpeg.videoFrame(tall, out, { at: 1, width: 480, format: 'webp' }));
    expect(err).toMatchObject({ code: 'invalid_option', message: 'The frame would be 480×384000 pixels (184.3 megapixels), which exceeds the limit of 100 megapixels.' });
    expect(await readdir(out)).toEqual([]);
    const narrow = await repo.videoFrame(tall, out, { at: 1, width: 16, format: 'png' });
    expect(narrow).toMatchObject({ width: 16, height: 12800 });
  });
});
