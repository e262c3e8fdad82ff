import type { AudioCompressOptions } from '../../../generated/types';
import { type AudioFormat, MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** The API offers MP3 only; drop auto-conversion also asks for aac, opus or wav (`format`). */
type Options = AudioCompressOptions & { format?: AudioFormat };

/** Re-encodes audio at a constant bitrate (default 128k); no result message. */
export const audioCompress = defineTool<'audio-compress', Options>({
  slug: 'audio-compress',
  kind: 'audio',
  queue: QUEUES.audio,
  scope: 'audio:write',
  cost: 2,
  optionsSchema: 'AudioCompressOptions',
  outputFormats: ['mp3'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs },
  requires: ['ffmpeg'],
  extraCheck: (options) => {
    if (options.bitrate === undefined) return undefined;
    // A string like "128k" (the contract's pattern); anything else fails the range check.
    const kbps = typeof options.bitrate === 'string' ? Number.parseInt(options.bitrate, 10) : Number.NaN;
    return kbps >= 32 && kbps <= 320 ? undefined : { path: 'body/options/bitrate', message: 'must be between 32k and 320k' };
  },
  async run({ media, input, outDir, options, onProgress }) {
    const output = await media.transcodeAudio(input, outDir, { format: options.format ?? 'mp3', bitrate: options.bitrate ?? '128k' }, onProgress);
    return { output };
  },
});
