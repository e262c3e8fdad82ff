import type { ImageResizeOptions } from '../../../generated/types';
import type { ImageFormat } from '../../media/media.types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** The contract's options; drop auto-conversion may also ask for any ImageFormat. */
type Options = Omit<ImageResizeOptions, 'format'> & { format?: ImageFormat };

/**
 * Resizes an image: fits inside width × height (the default), covers it (cropping at `position`),
 * contains it (padding) or fills it; keeps the input's format unless `format` asks for another.
 */
export const imageResize = defineTool<'image-resize', Options>({
  slug: 'image-resize',
  kind: 'image',
  queue: QUEUES.image,
  scope: 'image:write',
  cost: 1,
  optionsSchema: 'ImageResizeOptions',
  outputFormats: ['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  extraCheck: (options) => {
    // maintainAspectRatio: false is the older way of asking for `fill`; another fit contradicts it.
    if (options.maintainAspectRatio === false && options.fit !== undefined && options.fit !== 'fill') {
      return { path: 'body/options/fit', message: 'must be fill (or left out) with maintainAspectRatio false' };
    }
    if ((options.position === 'attention' || options.position === 'entropy') && (options.fit ?? 'inside') !== 'cover') {
      return { path: 'body/options/position', message: `${options.position} (a smart crop) needs fit cover` };
    }
    return undefined;
  },
  async run({ media, input, outDir, options, probe }) {
    const output = await media.transformImage(
      input,
      outDir,
      {
        width: options.width,
        height: options.height,
        maintainAspectRatio: options.maintainAspectRatio ?? true,
        fit: options.fit,
        position: options.position,
        format: options.format,
        quality: options.quality,
      },
      probe.image,
    );
    return { output, message: `Resized to ${output.width}×${output.height}.` };
  },
});
