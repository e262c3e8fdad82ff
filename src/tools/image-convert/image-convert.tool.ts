import type { ImageConvertOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** The contract's options, plus `stripMetadata`, which drop auto-compression sets. */
type Options = ImageConvertOptions & { stripMetadata?: boolean };

/** Re-encodes an image in another format (default webp, quality 80). */
export const imageConvert = defineTool<'image-convert', Options>({
  slug: 'image-convert',
  kind: 'image',
  queue: QUEUES.image,
  scope: 'image:write',
  cost: 1,
  optionsSchema: 'ImageConvertOptions',
  outputFormats: ['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'],
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  async run({ media, input, outDir, options, probe }) {
    const output = await media.transformImage(
      input,
      outDir,
      { format: options.format ?? 'webp', quality: options.quality ?? 80, stripMetadata: options.stripMetadata },
      probe.image,
    );
    return { output, message: `Converted to ${output.format}.` };
  },
});
