import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { cutFileName } from './file-names';

export type FileKind = 'image' | 'video' | 'audio' | 'document';

export interface SniffedStream {
  /** The same bytes, from the first one: the sample is replayed. */
  stream: Readable;
  mime: string;
  kind: FileKind;
  /** The extension of the detected type (`png`), undefined when the bytes named no type. */
  ext?: string;
}

/**
 * The file's type from its first bytes (file-type's magic numbers), never from the client's
 * Content-Type. Undetectable content (plain text, CSV…) is a document; its declared MIME is kept
 * only when it claims to be text, so a client cannot label bytes as an image.
 */
export async function sniff(stream: Readable, declaredMime?: string): Promise<SniffedStream> {
  // Whoever reads the stream next (a storage pipeline) gets its errors; until then (and between
  // this promise and that pipeline) an error or abort of the source (client gone) must not be an
  // unhandled 'error' event.
  stream.on('error', () => undefined);
  const sample = await peek(stream, SAMPLE_BYTES);
  const detected = sample.length > 0 ? await fileTypeFromBuffer(sample) : undefined;
  const mime = detected?.mime ?? (declaredMime && /^text\/[\w.+-]+$/.test(declaredMime) ? declaredMime : 'application/octet-stream');
  return { stream, mime, kind: kindOfMime(detected?.mime), ext: detected?.ext };
}

/** What file-type reads to tell a type (its own default sample size). */
const SAMPLE_BYTES = 4100;

/**
 * Up to `size` first bytes of the stream, put back at its front: the stream itself is handed on, with
 * no stage in between (a PassThrough per upload costs a hop for every chunk of the file). As
 * file-type's own fileTypeStream does, the sample is what is buffered at the first 'readable'
 * (a short first read gives a short sample). An empty part ends without 'readable' once read:
 * 'end' settles that case.
 */
function peek(stream: Readable, size: number): Promise<Buffer> {
  if (stream.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, sample?: Buffer) => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (err) reject(err);
      else resolve(sample ?? Buffer.alloc(0));
    };
    const onReadable = () => {
      const chunk = (stream.read(size) ?? stream.read()) as Buffer | null;
      // Put back at once, before the stream can emit 'end': it reads again from the first byte.
      if (chunk) stream.unshift(chunk);
      done(null, chunk ?? undefined);
    };
    const onEnd = () => done(null);
    const onError = (err: Error) => done(err);
    stream.once('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

export function kindOfMime(mime: string | undefined): FileKind {
  if (!mime) return 'document';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/') || mime === 'application/x-matroska') return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

// Names follow one set of rules (file-names.ts); importers of the sniffer get them here too.
export { sanitizeFileName } from './file-names';

/** Other spellings of file-type's extensions that name the same type. */
const EXT_ALIASES: Record<string, string[]> = { jpg: ['jpeg', 'jpe', 'jfif'], tif: ['tiff'], mp4: ['m4v'], m4a: ['m4b'], mpg: ['mpeg'], heic: ['heif'] };

/**
 * The name with an extension that matches the sniffed type: `invoice.html` holding PNG bytes is
 * stored as `invoice.png`. Unchanged when the bytes named no type or the extension already fits.
 */
export function nameMatchingType(name: string, ext: string | undefined): string {
  if (!ext) return name;
  const dot = name.lastIndexOf('.');
  const current = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (current === ext || EXT_ALIASES[ext]?.includes(current)) return name;
  const base = dot > 0 ? name.slice(0, dot) : name;
  return cutFileName(`${base}.${ext}`);
}

/**
 * Types a browser would run or render as a page: HTML, scripts, and every XML type (`text/xml`,
 * `application/xml`, any `…+xml` such as `image/svg+xml` or `text/foo+xml`, the XML entity and DTD
 * types) — XML with the XHTML namespace runs its scripts.
 */
const ACTIVE =
  /^(text\/(html|javascript|ecmascript|jscript|xsl|xslt)|application\/(javascript|ecmascript|x-javascript)|[a-z0-9!#$&^_.+-]+\/(xml|xml-[a-z0-9!#$&^_.+-]+|[a-z0-9!#$&^_.+-]*\+xml))$/i;

/** The Content-Type a stored file is served with: its sniffed type, never an active one. */
export function servedContentType(mime: string | null | undefined): string {
  const essence = (mime ?? '').split(';')[0].trim();
  return !essence || ACTIVE.test(essence) ? 'application/octet-stream' : mime!;
}
