import { PassThrough, pipeline, type Readable } from 'node:stream';
import { fileTypeStream } from 'file-type';
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
  // file-type waits for the source's first 'readable' event. A multipart part that ended before
  // anyone listened (an empty file: busboy pushes its end at once) only ever emits 'end', and the
  // request hung forever. A PassThrough in between always announces data or its end with 'readable'.
  // pipeline() forwards an error or abort of the source (client gone) to what reads from it.
  const source = pipeline(stream, new PassThrough(), () => undefined);
  const typed = await fileTypeStream(source, { sampleSize: 4100 });
  const detected = typed.fileType?.mime;
  const mime = detected ?? (declaredMime && /^text\/[\w.+-]+$/.test(declaredMime) ? declaredMime : 'application/octet-stream');
  return { stream: typed as unknown as Readable, mime, kind: kindOfMime(detected), ext: typed.fileType?.ext };
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
