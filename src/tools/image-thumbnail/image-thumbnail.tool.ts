import type { ImageThumbnailOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** A thumbnail (smart crop by default) with a ThumbHash placeholder and its dominant colour in the result. */
export const imageThumbnail = defineTool<'image-thumbnail', ImageThumbnailOptions>({
  slug: 'image-thumbnail',
  kind: 'image',
  queue: QUEUES.image,
  scope: 'image:write',
  cost: 1,
  optionsSchema: 'ImageThumbnailOptions',
  outputFormats: ['webp', 'avif', 'jpeg', 'png'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  // A job may leave `options` out (the spec's rule), but a thumbnail has no size of its own: refused
  // at submission rather than accepted, charged and failed by the worker.
  extraCheck: (options) => (options.width === undefined && options.height === undefined ? { path: 'body/options', message: 'must have width or height' } : undefined),
  async run({ media, input, outDir, options, probe }) {
    const { thumbhash, dominantColor, ...output } = await media.thumbnailImage(
      input,
      outDir,
      { format: options.format ?? 'webp', width: options.width, height: options.height, fit: options.fit, position: options.position, quality: options.quality },
      probe.image,
    );
    return { output, message: `Thumbnail of ${output.width}×${output.height}.`, details: { placeholder: { thumbhash }, dominantColor } };
  },
});
