import type { AudioWaveformOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** Waveform peaks of an audio file (or a video's sound): BBC audiowaveform JSON, or a PNG. */
export const audioWaveform = defineTool<'audio-waveform', AudioWaveformOptions>({
  slug: 'audio-waveform',
  kind: 'audio',
  // JSON peaks are data no tool reads; the PNG is an image another step may take.
  outputKind: (options) => (options.format === 'png' ? 'image' : 'data'),
  queue: QUEUES.audio,
  scope: 'audio:write',
  cost: 1,
  optionsSchema: 'AudioWaveformOptions',
  outputFormats: ['json', 'png'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs },
  requires: ['ffmpeg'],
  async run({ media, input, outDir, options, onProgress, probe }) {
    const format = options.format ?? 'json';
    const output = await media.audioWaveform(
      input,
      outDir,
      { format, points: options.points, bits: options.bits, width: options.width, height: options.height, color: options.color },
      onProgress,
      probe.av,
    );
    const message = format === 'png' ? `Waveform of ${output.width}×${output.height} pixels.` : `Waveform of ${options.points ?? 800} points.`;
    return { output, message };
  },
});
