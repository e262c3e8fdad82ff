import { makeAudio } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { audioCompress } from './audio-compress.tool';

const kit = new ToolTestKit();
let wav: string; // 3 s tone

beforeAll(async () => {
  await kit.setUp();
  await makeAudio((wav = kit.path('tone.wav')), 3);
});
afterAll(() => kit.tearDown());

describe('audio-compress', () => {
  it('is listed as an audio tool for audio:write at 2 credits', () => {
    expect(audioCompress).toMatchObject({
      slug: 'audio-compress',
      kind: 'audio',
      queue: 'audio-standard-queue',
      scope: 'audio:write',
      cost: 2,
      optionsSchema: 'AudioCompressOptions',
    });
  });

  it('checks the bitrate range the schema cannot state', () => {
    expect(audioCompress.extraCheck!({ bitrate: '128k' })).toBeUndefined();
    expect(audioCompress.extraCheck!({})).toBeUndefined();
    expect(audioCompress.extraCheck!({ bitrate: '16k' })).toEqual({ path: 'body/options/bitrate', message: 'must be between 32k and 320k' });
    expect(audioCompress.extraCheck!({ bitrate: '999k' })).toBeDefined();
  });

  it('MP3 at 128k by default, with no message', async () => {
    const { output, message, progress } = await kit.run(audioCompress, wav, {});
    expect(output).toMatchObject({ format: 'mp3', bitrate: '128k' });
    expect(output.duration).toBeCloseTo(3, 0);
    expect(message).toBeUndefined();
    expect(progress.at(-1)).toBe(100);
  });

  it('takes the bitrate, and another format when drop auto-conversion asks for one', async () => {
    expect((await kit.run(audioCompress, wav, { bitrate: '64k' })).output).toMatchObject({ format: 'mp3', bitrate: '64k' });
    expect((await kit.run(audioCompress, wav, { format: 'opus', bitrate: '96k' })).output.format).toBe('opus');
  });
});
