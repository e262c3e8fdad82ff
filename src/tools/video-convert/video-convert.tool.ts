import type { VideoConvertOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** The contract's options, plus `crf`, which drop auto-compression sets (H.264 CRF 28). */
type Options = VideoConvertOptions & { crf?: number };

/**
 * Transcodes a video: mp4/mov as H.264 + AAC, webm as VP9 + Opus; scaled (`width`/`height`), trimmed
 * (`start`, `duration`), at another frame rate (`fps`), without sound (`audio: false`); ffmpeg reports real progress.
 */
export const videoConvert = defineTool<'video-convert', Options>({
  slug: 'video-convert',
  kind: 'video',
  queue: QUEUES.video,
  scope: 'video:write',
  cost: 5,
  optionsSchema: 'VideoConvertOptions',
  outputFormats: ['mp4', 'webm', 'mov'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  requires: ['ffmpeg'],
  async run({ media, input, outDir, options, onProgress }) {
    const { width, height, start, duration, fps, audio } = options;
    const output = await media.transcodeVideo(
      input,
      outDir,
      { format: options.format ?? 'mp4', quality: options.quality ?? 'medium', crf: options.crf, width, height, start, duration, fps, audio },
      onProgress,
    );
    return { output, message: `Converted to ${output.format}.` };
  },
});
