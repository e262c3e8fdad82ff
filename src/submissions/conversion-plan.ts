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

/**
 * What a drop does with an arriving file (docs/decisions.md §5): `autoConvertTo` applies to files of
 * that format's kind; `autoCompress` re-encodes images at quality 80 without metadata, video as
 * H.264 CRF 28, audio at 96k. Files of other kinds, and documents, are kept as they are.
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
    default:
      return undefined;
  }
}

/** The MIME type a processed file is recorded with. */
export function mimeOfFormat(format: string): string {
  return contentTypeOf(format);
}
