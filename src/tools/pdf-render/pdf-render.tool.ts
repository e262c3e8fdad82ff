import type { PdfRenderOptions } from '../../../generated/types';
import { MediaError } from '../../media/media.errors';
import { DOCUMENT_LIMITS, MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/**
 * One page of a PDF to png, webp or jpeg with pdftoppm. The page count is the probe's (pdfinfo, at run
 * time): a page past the last fails with `invalid_option`; the schema's `page` maximum is the page limit.
 */
export const pdfRender = defineTool<'pdf-render', PdfRenderOptions>({
  slug: 'pdf-render',
  kind: 'document',
  outputKind: 'image',
  queue: QUEUES.document,
  scope: 'documents:write',
  cost: 1,
  optionsSchema: 'PdfRenderOptions',
  outputFormats: ['png', 'webp', 'jpeg'],
  limits: { timeLimitMs: DOCUMENT_LIMITS.timeLimitMs, maxInputPixels: MEDIA_LIMITS.maxInputPixels },
  requires: ['poppler'],
  extraCheck(options) {
    if (options.width !== undefined && options.dpi !== undefined) return { path: 'body/options/dpi', message: 'give width or dpi, not both' };
    return undefined;
  },
  async run({ media, input, outDir, options, probe }) {
    if (probe.format !== 'pdf') throw new MediaError('unsupported_input', `pdf-render needs a PDF; the input is ${probe.format.toUpperCase()}.`);
    const page = options.page ?? 1;
    const output = await media.renderPdfPage(input, outDir, { page, format: options.format ?? 'png', width: options.width, dpi: options.dpi }, probe.pages);
    return {
      output,
      message: `Rendered page ${page} of ${output.pages} as ${output.format}.`,
      details: { pages: output.pages },
    };
  },
});
