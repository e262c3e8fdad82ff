import type { AudioCompressOptions } from '../../../generated/types';
import { SAMPLE_RATES } from '../../media/ffmpeg-args';
import { type AudioFormat, MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

type Options = AudioCompressOptions & { format?: AudioFormat };

/** Re-encodes audio as mp3 (the default), aac, opus or wav, at a bitrate (default 128k), channels, sample rate and trim as asked; no result message. */
export const audioCompress = defineTool<'audio-compress', Options>({
  slug: 'audio-compress',
  kind: 'audio',
  queue: QUEUES.audio,
  scope: 'audio:write',
  cost: 2,
  optionsSchema: 'AudioCompressOptions',
  outputFormats: ['mp3', 'm4a', 'opus', 'wav'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs },
  requires: ['ffmpeg'],
  extraCheck: (options) => {
    const format = (options.format ?? 'mp3') as AudioFormat;
    // libopus encodes five rates only; the schema lists every rate some format takes.
    if (typeof options.sampleRate === 'number' && !SAMPLE_RATES[format].includes(options.sampleRate)) {
      return { path: 'body/options/sampleRate', message: `${format} takes ${SAMPLE_RATES[format].join(', ')}` };
    }
    if (options.bitrate === undefined) return undefined;
    // A string like "128k" (the contract's pattern); anything else fails the range check.
    const kbps = typeof options.bitrate === 'string' ? Number.parseInt(options.bitrate, 10) : Number.NaN;
    return kbps >= 32 && kbps <= 320 ? undefined : { path: 'body/options/bitrate', message: 'must be between 32k and 320k' };
  },
  async run({ media, input, outDir, options, onProgress }) {
    const { channels, sampleRate, start, duration } = options;
    const output = await media.transcodeAudio(
      input,
      outDir,
      { format: options.format ?? 'mp3', bitrate: options.bitrate ?? '128k', channels, sampleRate, start, duration },
      onProgress,
    );
    // AAC is written in an MP4 container: the file is named and served as one (.m4a, audio/mp4), not as raw ADTS.
    return { output: output.format === 'aac' ? { ...output, format: 'm4a' } : output };
  },
});
