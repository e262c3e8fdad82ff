import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { imageResize } from './image-resize.tool';

const kit = new ToolTestKit();
let jpeg: string; // 300×200
let png: string; // 64×48 RGBA

beforeAll(async () => {
  await kit.setUp();
  await writeFile((jpeg = kit.path('in.jpg')), await makeJpeg(300, 200));
  await writeFile((png = kit.path('in.png')), await makePng(64, 48));
});
afterAll(() => kit.tearDown());

describe('image-resize', () => {
  it('is listed as an image tool for image:write at 1 credit, whatever the options', () => {
    expect(imageResize).toMatchObject({ slug: 'image-resize', kind: 'image', queue: 'image-standard-queue', scope: 'image:write', cost: 1, optionsSchema: 'ImageResizeOptions' });
    expect(imageResize.charge({ width: 10 })).toBe(1);
  });

  it('width alone keeps the aspect ratio and the input format', async () => {
    const { output, message } = await kit.run(imageResize, jpeg, { width: 150 });
    expect(output).toMatchObject({ format: 'jpeg', width: 150, height: 100 });
    expect(message).toBe('Resized to 150×100.');
    expect(await sharp(output.path).metadata()).toMatchObject({ format: 'jpeg', width: 150, height: 100 });
  });

  it('fits inside width × height by default, stretches with maintainAspectRatio false', async () => {
    expect((await kit.run(imageResize, jpeg, { width: 100, height: 100 })).output).toMatchObject({ width: 100, height: 67 });
    expect((await kit.run(imageResize, jpeg, { width: 100, height: 100, maintainAspectRatio: false })).output).toMatchObject({ width: 100, height: 100 });
  });

  it('fit cover crops to the box, contain pads it (white in a jpeg), in the format and quality asked', async () => {
    const cover = await kit.run(imageResize, jpeg, { width: 50, height: 50, fit: 'cover', format: 'webp', quality: 50 });
    expect(await sharp(cover.output.path).metadata()).toMatchObject({ format: 'webp', width: 50, height: 50 });
    const contain = await kit.run(imageResize, png, { width: 100, height: 100, fit: 'contain', position: 'top', format: 'jpeg' });
    expect(await sharp(contain.output.path).metadata()).toMatchObject({ format: 'jpeg', width: 100, height: 100 });
    // The 64×48 red PNG sits at the top of the box: the bottom row is the white padding.
    const { data } = await sharp(contain.output.path).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(99 * 100 * 3, 99 * 100 * 3 + 3)].every((v) => v > 240)).toBe(true);
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(60);
  });

  it('refuses contradicting options before any work (400 at the field)', () => {
    expect(imageResize.extraCheck!({ width: 10, height: 10, maintainAspectRatio: false, fit: 'cover' })).toMatchObject({ path: 'body/options/fit' });
    expect(imageResize.extraCheck!({ width: 10, fit: 'contain', position: 'attention' })).toMatchObject({ path: 'body/options/position' });
    expect(imageResize.extraCheck!({ width: 10, height: 10, maintainAspectRatio: false, fit: 'fill' })).toBeUndefined();
    expect(imageResize.extraCheck!({ width: 10, fit: 'cover', position: 'entropy' })).toBeUndefined();
  });

  it('a PNG stays a PNG, alpha included', async () => {
    const { output } = await kit.run(imageResize, png, { height: 24 });
    expect(output).toMatchObject({ format: 'png', width: 32, height: 24 });
    expect((await sharp(output.path).metadata()).hasAlpha).toBe(true);
  });
});
