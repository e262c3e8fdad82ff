import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { pngBomb } from '../../test/support/media-fixtures';
import { MediaError } from './media.errors';
import { MediaEngine } from './media-engine';

/** Images and probing, with real files made by sharp and decoded back by sharp. */

let dir: string;
let jpeg: string; // 2725×2225
let png: string; // 400×300 RGBA
const repo = new MediaEngine();

async function outDir(name: string): Promise<string> {
  return mkdtemp(join(dir, `${name}-`));
}

async function expectMediaError(p: Promise<unknown>, code: MediaError['code']): Promise<MediaError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  const media = err as MediaError;
  expect(media.code).toBe(code);
  expect(media.message).not.toMatch(/\n/);
  expect(JSON.stringify(media)).not.toContain('detail');
  return media;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dropline-media-img-'));
  jpeg = join(dir, 'big.jpg');
  await sharp({ create: { width: 2725, height: 2225, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .composite([{ input: { create: { width: 800, height: 600, channels: 3, background: '#ff8800' } }, left: 100, top: 100 }])
    .jpeg()
    .toFile(jpeg);
  png = join(dir, 'alpha.png');
  await sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.5 } } })
    .png()
    .toFile(png);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('transformImage: image-resize', () => {
  it('width only keeps the aspect ratio and the input format', async () => {
    const out = await outDir('w');
    const result = await repo.transformImage(jpeg, out, { width: 800 });
    const meta = await sharp(result.path).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 653 });
    expect(result).toEqual({ path: join(out, 'output.jpg'), format: 'jpeg', width: 800, height: 653, size: (await stat(result.path)).size });
  });

  it('width and height with maintainAspectRatio false give the exact size', async () => {
    const result = await repo.transformImage(jpeg, await outDir('exact'), { width: 300, height: 300, maintainAspectRatio: false });
    expect(await sharp(result.path).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 300 });
  });

  it('width and height by default fit inside the box', async () => {
    const result = await repo.transformImage(jpeg, await outDir('fit'), { width: 300, height: 300 });
    expect(await sharp(result.path).metadata()).toMatchObject({ width: 300, height: 245 });
  });

  it('never overwrites: a second output in the same directory gets another generated name', async () => {
    const out = await outDir('twice');
    const a = await repo.transformImage(png, out, { width: 10 });
    const b = await repo.transformImage(png, out, { width: 20 });
    expect(a.path).toBe(join(out, 'output.png'));
    expect(b.path).toMatch(/output-[0-9a-f]{8}\.png$/);
    expect((await sharp(a.path).metadata()).width).toBe(10);
  });

  it('refuses a requested output above the pixel limit before doing any work', async () => {
    const small = new MediaEngine({ maxInputPixels: 1_000_000 });
    const out = await outDir('huge-out');
    const err = await expectMediaError(small.transformImage(png, out, { width: 5000 }), 'invalid_option');
    expect(err.message).toMatch(/^The output would be 5000×\d+ pixels \([\d.]+ megapixels\), which exceeds the limit of 1 megapixels\.$/);
    expect(await readdir(out)).toEqual([]);
  });
});

describe('transformImage: image-convert', () => {
  it.each([
    ['webp', 'webp'],
    ['avif', 'avif'],
    ['png', 'png'],
    ['tiff', 'tiff'],
    ['gif', 'gif'],
  ] as const)('jpeg → %s', async (format, ext) => {
    const result = await repo.transformImage(jpeg, await outDir(format), { format, quality: 60, width: 640 });
    const meta = await sharp(result.path).metadata();
    expect(meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format).toBe(format);
    expect(result.path.endsWith(`output.${ext}`)).toBe(true);
    expect(result).toMatchObject({ format, width: 640, height: 523 });
  });

  it('quality changes the encoded size', async () => {
    const low = await repo.transformImage(jpeg, await outDir('q10'), { format: 'webp', quality: 10 });
    const high = await repo.transformImage(jpeg, await outDir('q95'), { format: 'webp', quality: 95 });
    expect(low.size).toBeLessThan(high.size);
    expect(await sharp(low.path).metadata()).toMatchObject({ format: 'webp', width: 2725, height: 2225 });
  });

  it('png with alpha → jpeg is flattened; → webp keeps alpha', async () => {
    const j = await repo.transformImage(png, await outDir('flat'), { format: 'jpeg' });
    expect(await sharp(j.path).metadata()).toMatchObject({ format: 'jpeg', hasAlpha: false, width: 400, height: 300 });
    const w = await repo.transformImage(png, await outDir('alpha'), { format: 'webp' });
    expect(await sharp(w.path).metadata()).toMatchObject({ format: 'webp', hasAlpha: true });
  });

  it('strips EXIF by default and keeps it with stripMetadata false', async () => {
    const withExif = join(dir, 'exif.jpg');
    await sharp(jpeg)
      .resize(200)
      .withExif({ IFD0: { Copyright: 'dropline-test' } })
      .jpeg()
      .toFile(withExif);
    const stripped = await repo.transformImage(withExif, await outDir('strip'), { format: 'jpeg' });
    expect((await sharp(stripped.path).metadata()).exif).toBeUndefined();
    const kept = await repo.transformImage(withExif, await outDir('keep'), { format: 'jpeg', stripMetadata: false });
    expect((await sharp(kept.path).metadata()).exif?.toString('latin1')).toContain('dropline-test');
  });

  it('animated GIF → WebP stays animated', async () => {
    const frames = await Promise.all(
      ['#ff0000', '#00ff00', '#0000ff'].map((c) =>
        sharp({ create: { width: 60, height: 40, channels: 3, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = join(dir, 'anim.gif');
    await sharp(frames, { join: { animated: true } })
      .gif()
      .toFile(gif);
    const result = await repo.transformImage(gif, await outDir('anim'), { format: 'webp', width: 30 });
    const meta = await sharp(result.path).metadata();
    expect(meta).toMatchObject({ format: 'webp', pages: 3, width: 30, height: 20 }); // height is per frame
    expect(result).toMatchObject({ width: 30, height: 20 });
    // Handing the probe's header forward (the job runner does) gives the same output.
    const probed = await repo.probe(gif);
    const again = await repo.transformImage(gif, await outDir('anim-probed'), { format: 'webp', width: 30 }, probed.image);
    expect({ ...again, path: undefined }).toEqual({ ...result, path: undefined });
  });

  it('the reported size, format and dimensions are those of the written file', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const) {
      const result = await repo.transformImage(jpeg, await outDir(`report-${format}`), { format, width: 120 }, (await repo.probe(jpeg)).image);
      const meta = await sharp(result.path).metadata();
      expect(result).toEqual({
        path: result.path,
        format,
        size: (await stat(result.path)).size,
        width: meta.width,
        height: meta.height,
      });
    }
  });
});

describe('image safety and errors', () => {
  it('a decompression bomb (PNG claiming 50000×50000) fails fast without decoding', async () => {
    const bomb = join(dir, 'bomb.png');
    await writeFile(bomb, pngBomb(50_000, 50_000));
    const out = await outDir('bomb');
    const rssBefore = process.memoryUsage().rss;
    const err = await expectMediaError(repo.transformImage(bomb, out, { width: 100 }), 'unsupported_input');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    expect(err.message).toBe('The image is 50000×50000 pixels, which exceeds the limit of 100 megapixels.');
    expect(await readdir(out)).toEqual([]);
    // probing reads the header only
    expect(await repo.probe(bomb)).toEqual({
      kind: 'image',
      format: 'png',
      width: 50_000,
      height: 50_000,
      image: { format: 'png', width: 50_000, height: 50_000, hasAlpha: false },
    });
  });

  it('a truncated JPEG fails as unsupported_input and leaves nothing behind', async () => {
    const noisy = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg()
      .toBuffer();
    const cut = join(dir, 'cut.jpg');
    await writeFile(cut, noisy.subarray(0, Math.floor(noisy.length / 2)));
    const out = await outDir('cut');
    const err = await expectMediaError(repo.transformImage(cut, out, { format: 'png' }), 'unsupported_input');
    expect(err.message).toBe('The image is corrupt or truncated.');
    expect(err.detail).toMatch(/premature end/i);
    expect(await readdir(out)).toEqual([]);
  });

  it('a text file is unsupported_input', async () => {
    const txt = join(dir, 'notes.txt');
    await writeFile(txt, 'hello, not an image\n'.repeat(50));
    const out = await outDir('txt');
    const err = await expectMediaError(repo.transformImage(txt, out, {}), 'unsupported_input');
    expect(err.message).toBe('The file is not a supported image.');
    expect(await readdir(out)).toEqual([]);
  });

  it('SVG is refused (it may reference neighbouring files)', async () => {
    const svg = join(dir, 'pic.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expectMediaError(repo.transformImage(svg, await outDir('svg'), { format: 'png' }), 'unsupported_input');
  });

  it('a missing input is processing_failed; bad options are rejected', async () => {
    await expectMediaError(repo.transformImage(join(dir, 'nope.jpg'), await outDir('missing')), 'processing_failed');
    await expectMediaError(repo.transformImage(png, await outDir('q'), { quality: 0 }), 'processing_failed');
    await expectMediaError(repo.transformImage(png, await outDir('w0'), { width: 0 }), 'processing_failed');
  });
});

describe('probe', () => {
  it('describes images; a text file is a txt document (document-convert takes it)', async () => {
    // The header comes along, for transformImage to use instead of reading it again.
    expect(await repo.probe(jpeg)).toEqual({
      kind: 'image',
      format: 'jpeg',
      width: 2725,
      height: 2225,
      image: { format: 'jpeg', width: 2725, height: 2225, hasAlpha: false },
    });
    const txt = join(dir, 'probe.txt');
    await writeFile(txt, 'just words');
    expect(await repo.probe(txt)).toEqual({ kind: 'document', format: 'txt' });
  });
});
