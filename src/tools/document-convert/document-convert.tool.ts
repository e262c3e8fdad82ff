import type { DocumentConvertOptions } from '../../../generated/types';
import { DOCUMENT_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/** An office or text document to PDF with LibreOffice (sandboxed: see src/media/documents.ts); `result.pages`. */
export const documentConvert = defineTool<'document-convert', DocumentConvertOptions>({
  slug: 'document-convert',
  kind: 'document',
  queue: QUEUES.document,
  scope: 'documents:write',
  cost: 2,
  optionsSchema: 'DocumentConvertOptions',
  outputFormats: ['pdf'],
  limits: { timeLimitMs: DOCUMENT_LIMITS.timeLimitMs },
  // LibreOffice converts, poppler counts the pages it wrote, ffprobe is asked before a file is taken for plain text.
  requires: ['libreoffice', 'poppler', 'ffmpeg'],
  async run({ media, input, outDir, probe }) {
    const output = await media.convertDocumentToPdf(input, outDir, probe.format);
    return {
      output,
      message: `Converted ${probe.format.toUpperCase()} to PDF (${output.pages} page${output.pages === 1 ? '' : 's'}).`,
      details: { pages: output.pages },
    };
  },
});
