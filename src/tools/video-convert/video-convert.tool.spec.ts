import { makeVideo, probe } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { videoConvert } from './video-convert.tool';

const kit = new ToolTestKit();
let clip: string; // 2 s, 160×120, H.264 + AAC

beforeAll(async () => {
  await kit.setUp();
  await makeVideo((clip = kit.path('clip.mp4')), 2);
});
afterAll(() => kit.tearDown());

describe('video-convert', () => {
  it('is listed as a video tool for video:write at 5 credits', () => {
    expect(videoConvert).toMatchObject({
      slug: 'video-convert',
      kind: 'video',
      queue: 'video-standard-queue',
      scope: 'video:write',
      cost: 5,
      optionsSchema: 'VideoConvertOptions',
    });
    expect(videoConvert.charge({ format: 'webm' })).toBe(5);
  });

  it('mp4 by default: H.264, same size and duration, progress up to 100', async () => {
    const { output, message, progress } = await kit.run(videoConvert, clip, {});
    expect(output).toMatchObject({ format: 'mp4', width: 160, height: 120 });
    expect(output.duration).toBeCloseTo(2, 0);
    expect(message).toBe('Converted to mp4.');
    expect(progress.at(-1)).toBe(100);
    expect((await probe(output.path)).streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
  });

  it('webm at low quality is VP9', async () => {
    const { output } = await kit.run(videoConvert, clip, { format: 'webm', quality: 'low' });
    expect(output.format).toBe('webm');
    expect((await probe(output.path)).streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('vp9');
  });
});
