import sharp from 'sharp';
import { makeVideo } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { videoThumbnail } from './video-thumbnail.tool';

const kit = new ToolTestKit();
let clip: string; // 2 s, 160×120

beforeAll(async () => {
  await kit.setUp();
  await makeVideo((clip = kit.path('clip.mp4')), 2);
});
afterAll(() => kit.tearDown());

describe('video-thumbnail', () => {
  it('is listed as a video tool for video:write at 1 credit, one output', () => {
    expect(videoThumbnail).toMatchObject({
      slug: 'video-thumbnail',
      kind: 'video',
      queue: 'video-standard-queue',
      scope: 'video:write',
      cost: 1,
      optionsSchema: 'VideoThumbnailOptions',
    });
    expect(videoThumbnail.outputs.map((o) => o.name)).toEqual(['output']);
  });

  it('auto by default: a jpeg of the video size', async () => {
    const { output, message, outputs } = await kit.run(videoThumbnail, clip, {});
    expect(await sharp(output.path).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 120 });
    expect(message).toBe('A representative frame, 160x120 jpeg.');
    expect(outputs).toBeUndefined();
  });

  it('at 1.5 s, 64 wide, webp', async () => {
    const { output, message } = await kit.run(videoThumbnail, clip, { at: 1.5, width: 64, format: 'webp' });
    expect(await sharp(output.path).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(message).toBe('The frame at 1.5 s, 64x48 webp.');
  });
});
