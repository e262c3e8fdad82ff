import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { VideoStoryboardOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool, fileNameFor } from '../tool-definition';
import { storyboardVtt } from './webvtt';

/**
 * A scrubbing storyboard: the sprite (the main output) and a WebVTT (`vtt`) whose cues name the
 * sprite by the file name it downloads as (`<baseName>.<ext>`), with `#xywh=` of each tile.
 */
export const videoStoryboard = defineTool<'video-storyboard', VideoStoryboardOptions>({
  slug: 'video-storyboard',
  kind: 'video',
  outputKind: 'image',
  queue: QUEUES.video,
  scope: 'video:write',
  cost: 2,
  optionsSchema: 'VideoStoryboardOptions',
  outputFormats: ['jpeg', 'webp'],
  outputs: [
    { name: 'output', formats: ['jpeg', 'webp'], description: 'The sprite: the tiles, left to right then top to bottom.' },
    { name: 'vtt', formats: ['vtt'], description: 'WebVTT, one cue per tile: `<sprite fileName>#xywh=x,y,w,h`.' },
  ],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  requires: ['ffmpeg'],
  async run({ media, input, outDir, baseName, options, onProgress }) {
    const { interval = 5, columns = 5, width = 160, format = 'jpeg' } = options;
    const { sprite, ...board } = await media.videoStoryboard(input, outDir, { interval, columns, width, format }, onProgress);
    const vttPath = join(outDir, 'storyboard.vtt');
    const vtt = storyboardVtt(fileNameFor(baseName, sprite.format), board);
    await writeFile(vttPath, vtt);
    const { tiles, rows, tileWidth, tileHeight } = board;
    return {
      output: { ...sprite, details: { tiles, columns: board.columns, rows, tileWidth, tileHeight, interval: board.interval } },
      outputs: { vtt: { path: vttPath, format: 'vtt', size: Buffer.byteLength(vtt), details: { cues: tiles } } },
      message: `${tiles} tiles of ${tileWidth}x${tileHeight}, one every ${board.interval} s.`,
    };
  },
});
