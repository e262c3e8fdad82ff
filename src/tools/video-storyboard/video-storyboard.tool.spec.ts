import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { makeVideo } from '../../../test/support/media-fixtures';
import { parseStoryboardVtt } from '../../../test/support/webvtt';
import { ToolTestKit } from '../tool-testing';
import { videoStoryboard } from './video-storyboard.tool';
import { storyboardVtt } from './webvtt';

const kit = new ToolTestKit();
let clip: string; // 3 s, 160×90

beforeAll(async () => {
  await kit.setUp();
  await makeVideo((clip = kit.path('clip.mp4')), 3, { size: '160x90' });
});
afterAll(() => kit.tearDown());

describe('video-storyboard', () => {
  it('is listed as a video tool for video:write at 2 credits, with two outputs', () => {
    expect(videoStoryboard).toMatchObject({ slug: 'video-storyboard', kind: 'video', queue: 'video-standard-queue', scope: 'video:write', cost: 2 });
    expect(videoStoryboard.outputs.map((o) => o.name)).toEqual(['output', 'vtt']);
  });

  it('a sprite and a WebVTT whose every cue lies inside it, one per tile, back to back', async () => {
    const { output, outputs, message } = await kit.run(videoStoryboard, clip, { interval: 1, columns: 2, width: 64 }, 'my clip#1');
    const sprite = await sharp(output.path).metadata();
    expect(sprite).toMatchObject({ format: 'jpeg', width: 128, height: 72 });
    expect(output.details).toEqual({ tiles: 3, columns: 2, rows: 2, tileWidth: 64, tileHeight: 36, interval: 1 });
    expect(message).toBe('3 tiles of 64x36, one every 1 s.');
    const vtt = await readFile(outputs!.vtt.path, 'utf8');
    expect(outputs!.vtt).toMatchObject({ format: 'vtt', size: Buffer.byteLength(vtt), details: { cues: 3 } });
    const cues = parseStoryboardVtt(vtt);
    expect(cues).toHaveLength(3);
    cues.forEach((cue, i) => {
      expect(cue.url).toBe('my%20clip%231.jpg'); // the sprite's download name, relative to the VTT
      expect(cue.start).toBeCloseTo(i, 3);
      expect(cue.x + cue.w).toBeLessThanOrEqual(sprite.width);
      expect(cue.y + cue.h).toBeLessThanOrEqual(sprite.height);
      if (i > 0) expect(cue.start).toBe(cues[i - 1].end);
    });
    expect(cues[2].end).toBeCloseTo(3, 1);
  });

  it('the VTT of a tile count that does not fill the last row', () => {
    const vtt = storyboardVtt('a.webp', { duration: 12.5, interval: 5, tiles: 3, columns: 2, rows: 2, tileWidth: 100, tileHeight: 50 });
    expect(vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:05.000',
        'a.webp#xywh=0,0,100,50',
        '',
        '00:00:05.000 --> 00:00:10.000',
        'a.webp#xywh=100,0,100,50',
        '',
        '00:00:10.000 --> 00:00:12.500',
        'a.webp#xywh=0,50,100,50',
        '',
      ].join('\n'),
    );
  });
});
