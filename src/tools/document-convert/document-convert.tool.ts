import type { DocumentConvertOptions } from '../../../generated/types';
import { DOCUMENT_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/**
 * An office or text document to PDF (the default) or to another format of its kind (text,
 * spreadsheet, presentation) with LibreOffice (sandboxed: see src/media/documents.ts); a format of
 * another kind fails `invalid_option` once the input is known. `result.pages` for a PDF.
 */
export const documentConvert = defineTool<'document-convert', DocumentConvertOptions>({
  slug: 'document-convert',
  kind: 'document',
  queue: QUEUES.document,
  scope: 'documents:write',
  cost: 2,
  optionsSchema: 'DocumentConvertOptions',
  outputFormats: ['pdf', 'docx', 'odt', 'rtf', 'txt', 'html', 'xlsx', 'ods', 'csv', 'pptx', 'odp'],
  limits: { timeLimitMs: DOCUMENT_LIMITS.timeLimitMs },
  // LibreOffice converts, poppler counts the pages it wrote, ffprobe is asked before a file is taken for plain text.
  requires: ['libreoffice', 'poppler', 'ffmpeg'],
  async run({ media, input, outDir, options, probe }) {
    const target = options.format ?? 'pdf';
    const output = await media.convertDocument(input, outDir, probe.format, target);
    if (target !== 'pdf') return { output, message: `Converted ${probe.format.toUpperCase()} to ${target.toUpperCase()}.` };
    return {
      output,
      message: `Converted ${probe.format.toUpperCase()} to PDF (${output.pages} page${output.pages === 1 ? '' : 's'}).`,
      details: { pages: output.pages },
    };
  },
});
