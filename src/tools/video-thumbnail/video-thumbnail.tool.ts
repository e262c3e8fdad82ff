import type { VideoThumbnailOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** A poster frame: at `at` seconds, or a representative one (`auto`, ffmpeg's thumbnail filter), written by ffmpeg. */
export const videoThumbnail = defineTool<'video-thumbnail', VideoThumbnailOptions>({
  slug: 'video-thumbnail',
  kind: 'video',
  outputKind: 'image',
  queue: QUEUES.video,
  scope: 'video:write',
  cost: 1,
  optionsSchema: 'VideoThumbnailOptions',
  outputFormats: ['jpeg', 'webp', 'png'],
  outputs: [{ name: 'output', formats: ['jpeg', 'webp', 'png'], description: 'The frame as an image.' }],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  requires: ['ffmpeg'],
  async run({ media, input, outDir, options, onProgress, probe }) {
    const at = options.at ?? 'auto';
    const output = await media.videoFrame(input, outDir, { at, width: options.width, format: options.format ?? 'jpeg' }, onProgress, probe.av);
    const which = at === 'auto' ? 'A representative frame' : `The frame at ${at} s`;
    return { output, message: `${which}, ${output.width}x${output.height} ${output.format}.` };
  },
});
