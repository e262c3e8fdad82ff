import type { MediaInfoOptions } from '../../../generated/types';
import { MEDIA_LIMITS } from '../../media/media.types';
import { QUEUES } from '../../queue/queue.module';
import { defineTool } from '../tool-definition';

/**
 * What a media file is (`result.info`), read from its headers; no output file, free. Any media
 * scope may ask: what a key may convert it may also describe.
 */
export const mediaInfo = defineTool<'media-info', MediaInfoOptions>({
  slug: 'media-info',
  kind: 'any',
  // Headers only: the image queue's many slots suit it better than the single video one.
  queue: QUEUES.image,
  scope: ['image:write', 'video:write', 'audio:write', 'documents:write'],
  cost: 0,
  optionsSchema: 'MediaInfoOptions',
  outputFormats: [],
  outputs: [],
  outputKind: 'none',
  limits: { timeLimitMs: MEDIA_LIMITS.timeLimitMs },
  // ffprobe describes video and audio; a PDF's page count also needs poppler (pdfinfo), which does not make the tool unavailable.
  requires: ['ffmpeg'],
  async run({ media, input, probe }) {
    const info = await media.inspect(input, probe);
    return { message: `${capitalise(info.kind)} file, ${info.format}.`, details: { info } };
  },
});

function capitalise(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
