import type { ImageResizeOptions } from '../../../generated/types';
import type { ImageFormat } from '../../media/media.types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** The contract's options, plus `format`, which drop auto-conversion may ask for. */
type Options = ImageResizeOptions & { format?: ImageFormat };

/** Resizes an image, keeping its format: fits inside width × height unless maintainAspectRatio is false. */
export const imageResize = defineTool<'image-resize', Options>({
  slug: 'image-resize',
  kind: 'image',
  queue: QUEUES.image,
  scope: 'image:write',
  cost: 1,
  optionsSchema: 'ImageResizeOptions',
  outputFormats: ['same as input: jpeg, png, webp, avif, tiff, gif'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  async run({ media, input, outDir, options, probe }) {
    const output = await media.transformImage(
      input,
      outDir,
      { width: options.width, height: options.height, maintainAspectRatio: options.maintainAspectRatio ?? true, format: options.format },
      probe.image,
    );
    return { output, message: `Resized to ${output.width}×${output.height}.` };
  },
});
