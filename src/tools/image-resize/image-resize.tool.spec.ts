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

  it('a PNG stays a PNG, alpha included', async () => {
    const { output } = await kit.run(imageResize, png, { height: 24 });
    expect(output).toMatchObject({ format: 'png', width: 32, height: 24 });
    expect((await sharp(output.path).metadata()).hasAlpha).toBe(true);
  });
});
