import { stat, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { imageConvert } from './image-convert.tool';

const kit = new ToolTestKit();
let jpeg: string; // 120×80 with EXIF
let png: string; // 64×48 RGBA

beforeAll(async () => {
  await kit.setUp();
  jpeg = kit.path('in.jpg');
  await sharp(await makeJpeg(120, 80))
    .withExif({ IFD0: { Copyright: 'Dropline test' } })
    .toFile(jpeg);
  await writeFile((png = kit.path('in.png')), await makePng(64, 48));
});
afterAll(() => kit.tearDown());

describe('image-convert', () => {
  it('is listed as an image tool for image:write at 1 credit', () => {
    expect(imageConvert).toMatchObject({
      slug: 'image-convert',
      kind: 'image',
      queue: 'image-standard-queue',
      scope: 'image:write',
      cost: 1,
      optionsSchema: 'ImageConvertOptions',
    });
    expect(imageConvert.outputFormats).toEqual(['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif']);
  });

  it('converts to webp by default, same size', async () => {
    const { output, message } = await kit.run(imageConvert, jpeg, {});
    expect(output).toMatchObject({ format: 'webp', width: 120, height: 80 });
    expect(message).toBe('Converted to webp.');
    expect((await sharp(output.path).metadata()).format).toBe('webp');
  });

  it('quality changes the encoded size', async () => {
    const low = await kit.run(imageConvert, jpeg, { format: 'jpeg', quality: 5 });
    const high = await kit.run(imageConvert, jpeg, { format: 'jpeg', quality: 100 });
    expect((await stat(low.output.path)).size).toBeLessThan((await stat(high.output.path)).size);
  });

  it('PNG with alpha → jpeg is flattened', async () => {
    const { output } = await kit.run(imageConvert, png, { format: 'jpeg' });
    expect(await sharp(output.path).metadata()).toMatchObject({ format: 'jpeg', hasAlpha: false });
  });

  it('drops EXIF by default, keeps it with stripMetadata false (drop auto-conversion)', async () => {
    const stripped = await kit.run(imageConvert, jpeg, { format: 'jpeg' });
    const kept = await kit.run(imageConvert, jpeg, { format: 'jpeg', stripMetadata: false });
    expect((await sharp(stripped.output.path).metadata()).exif).toBeUndefined();
    expect((await sharp(kept.output.path).metadata()).exif).toBeDefined();
  });
});
