import { readdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from 'thumbhash';
import { makeJpeg, makePng, pngBomb } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { imageThumbnail } from './image-thumbnail.tool';

const kit = new ToolTestKit();
let jpeg: string; // 300×200, blue with an orange disc
let rotated: string; // 300×200 stored, EXIF orientation 6: shown 200×300
let salient: string; // 400×100 grey, a red disc at the right end

beforeAll(async () => {
  await kit.setUp();
  await writeFile((jpeg = kit.path('in.jpg')), await makeJpeg(300, 200));
  await writeFile(
    (rotated = kit.path('rotated.jpg')),
    await sharp(await makeJpeg(300, 200))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer(),
  );
  const disc = Buffer.from('<svg width="400" height="100"><circle cx="350" cy="50" r="40" fill="#ff0000"/></svg>');
  await writeFile(
    (salient = kit.path('salient.png')),
    await sharp({ create: { width: 400, height: 100, channels: 3, background: '#808080' } })
      .composite([{ input: disc }])
      .png()
      .toBuffer(),
  );
});
afterAll(() => kit.tearDown());

describe('image-thumbnail', () => {
  it('needs a size: options without width or height are refused before any work', () => {
    expect(imageThumbnail.extraCheck!({})).toEqual({ path: 'body/options', message: 'must have width or height' });
    expect(imageThumbnail.extraCheck!({ height: 10 })).toBeUndefined();
  });

  it('is listed as an image tool for image:write at 1 credit', () => {
    expect(imageThumbnail).toMatchObject({
      slug: 'image-thumbnail',
      kind: 'image',
      queue: 'image-standard-queue',
      scope: 'image:write',
      cost: 1,
      optionsSchema: 'ImageThumbnailOptions',
    });
  });

  it('covers width × height in WebP by default, with a ThumbHash that decodes to the aspect ratio and the dominant colour', async () => {
    const { output, message, details } = await kit.run(imageThumbnail, jpeg, { width: 120, height: 80 });
    expect(output).toMatchObject({ format: 'webp', width: 120, height: 80 });
    expect(message).toBe('Thumbnail of 120×80.');
    expect(await sharp(output.path).metadata()).toMatchObject({ format: 'webp', width: 120, height: 80 });
    const hash = Buffer.from((details!.placeholder as { thumbhash: string }).thumbhash, 'base64');
    const decoded = thumbHashToRGBA(hash);
    // ThumbHash renders 32 pixels on the long side, in the image's aspect ratio (approximately: it is quantised).
    expect(decoded.w).toBe(32);
    expect(decoded.rgba.length).toBe(decoded.w * decoded.h * 4);
    expect(decoded.w / decoded.h).toBeGreaterThan(1.3);
    expect(decoded.w / decoded.h).toBeLessThan(1.8);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(1.5, 0);
    // The makeJpeg background is rgb(40, 120, 200): blue dominates.
    expect(details!.dominantColor).toMatch(/^#[0-9a-f]{6}$/);
    const [r, , b] = [1, 3, 5].map((i) => parseInt((details!.dominantColor as string).slice(i, i + 2), 16));
    expect(b).toBeGreaterThan(r);
  });

  it('applies the EXIF orientation and strips the metadata', async () => {
    const { output } = await kit.run(imageThumbnail, rotated, { width: 100, fit: 'inside', format: 'jpeg' });
    expect(output).toMatchObject({ format: 'jpeg', width: 100, height: 150 });
    const meta = await sharp(output.path).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 150 });
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });

  it('contain pads to the box (transparent in PNG), inside never enlarges', async () => {
    const contained = await kit.run(imageThumbnail, jpeg, { width: 100, height: 100, fit: 'contain', format: 'png' });
    expect(contained.output).toMatchObject({ format: 'png', width: 100, height: 100 });
    const corner = await sharp(contained.output.path).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[3]).toBe(0);
    const inside = await kit.run(imageThumbnail, jpeg, { width: 1000, height: 1000, fit: 'inside', format: 'avif' });
    expect(inside.output).toMatchObject({ format: 'avif', width: 300, height: 200 });
    expect((await sharp(inside.output.path).metadata()).compression).toBe('av1');
  });

  it('attention crops towards the salient region, center keeps the middle', async () => {
    const redness = async (path: string) => (await sharp(path).stats()).channels[0].mean - (await sharp(path).stats()).channels[1].mean;
    const smart = await kit.run(imageThumbnail, salient, { width: 100, height: 100, position: 'attention', format: 'png' });
    const centre = await kit.run(imageThumbnail, salient, { width: 100, height: 100, position: 'center', format: 'png' });
    expect(await redness(smart.output.path)).toBeGreaterThan(50);
    expect(await redness(centre.output.path)).toBeLessThan(5);
    const entropy = await kit.run(imageThumbnail, salient, { width: 100, height: 100, position: 'entropy', format: 'png' });
    expect(entropy.output).toMatchObject({ width: 100, height: 100 });
  });

  it('refuses a decompression bomb and a truncated file without leaving an output behind', async () => {
    const bomb = kit.path('bomb.png');
    await writeFile(bomb, pngBomb(20_000, 20_000));
    const outDir = kit.path('hostile-out');
    await expect(kit.media.thumbnailImage(bomb, outDir, { format: 'webp', width: 10 })).rejects.toMatchObject({
      code: 'unsupported_input',
      message: expect.stringMatching(/exceeds the limit/),
    });
    const truncated = kit.path('truncated.png');
    const png = await makePng(400, 300);
    await writeFile(truncated, png.subarray(0, png.length >> 1));
    await expect(kit.run(imageThumbnail, truncated, { width: 10 })).rejects.toMatchObject({ code: 'unsupported_input' });
    await expect(kit.media.thumbnailImage(truncated, outDir, { format: 'webp', width: 10 })).rejects.toMatchObject({ code: 'unsupported_input' });
    expect(await readdir(outDir).catch(() => [])).toEqual([]);
  });

  it('a thumbnail whose planned size is over the pixel limit is invalid_option naming it, before sharp decodes anything', async () => {
    const tall = kit.path('tall.png');
    await writeFile(tall, await makePng(2, 1600));
    await expect(kit.run(imageThumbnail, tall, { width: 480, format: 'webp' })).rejects.toMatchObject({
      code: 'invalid_option',
      message: 'The output would be 480×384000 pixels (184.3 megapixels), which exceeds the limit of 100 megapixels.',
    });
    // fit inside never enlarges: the same width is the input's own size.
    const inside = await kit.run(imageThumbnail, tall, { width: 480, fit: 'inside', format: 'png' });
    expect(inside.output).toMatchObject({ width: 2, height: 1600 });
  });
});
