import { contentTypeOf } from '../media/content-types';
import type { FileKind } from '../common/file-sniffer';
import { kindOfTarget } from '../drops/drop-rules';
import type { Drop } from '../drops/drop.entity';
import { TOOLS, type ToolDefinition } from '../tools/tool-registry';

export interface ConversionPlan {
  tool: ToolDefinition;
  options: Record<string, unknown>;
}

const IMAGE_KEEP = ['jpeg', 'png', 'webp', 'avif'];

/** The sniffed types document-convert takes (the sniffer keeps a declared `text/*` type, e.g. text/html); a PDF is kept as sent. */
const OFFICE_MIMES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
]);

/**
 * What a drop does with an arriving file (docs/decisions.md §5): `autoConvertTo` applies to files of
 * that format's kind; `autoCompress` re-encodes images at quality 80 without metadata, video as
 * H.264 CRF 28, audio at 96k; `autoConvertTo: pdf` converts office and text documents (document-convert).
 * Other files (a PDF, an archive, documents without a pdf target) are kept as they are.
 */
export function planConversion(drop: Pick<Drop, 'autoConvertTo' | 'autoCompress'>, kind: FileKind, mime: string): ConversionPlan | undefined {
  const target = drop.autoConvertTo && kindOfTarget(drop.autoConvertTo) === kind ? drop.autoConvertTo : undefined;
  if (!target && !drop.autoCompress) return undefined;
  const compress = drop.autoCompress;
  switch (kind) {
    case 'image': {
      const current = mime.replace('image/', '');
      const format = target ?? (IMAGE_KEEP.includes(current) ? current : 'jpeg');
      return { tool: TOOLS['image-convert'], options: { format, quality: 80, ...(compress ? { stripMetadata: true } : {}) } };
    }
    case 'video':
      return { tool: TOOLS['video-convert'], options: { format: target ?? 'mp4', ...(compress ? { crf: 28 } : { quality: 'medium' }) } };
    case 'audio':
      return { tool: TOOLS['audio-compress'], options: { format: target ?? 'mp3', bitrate: compress ? '96k' : '128k' } };
    case 'document':
      return target === 'pdf' && (OFFICE_MIMES.has(mime) || mime.startsWith('text/')) ? { tool: TOOLS['document-convert'], options: { format: 'pdf' } } : undefined;
    default:
      return undefined;
  }
}

/** The MIME type a processed file is recorded with. */
export function mimeOfFormat(format: string): string {
  return contentTypeOf(format);
}
