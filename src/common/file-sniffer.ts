import { PassThrough, pipeline, type Readable } from 'node:stream';
import { fileTypeStream } from 'file-type';

export type FileKind = 'image' | 'video' | 'audio' | 'document';

export interface SniffedStream {
  /** The same bytes, from the first one: the sample is replayed. */
  stream: Readable;
  mime: string;
  kind: FileKind;
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
  return { stream: typed as unknown as Readable, mime, kind: kindOfMime(detected) };
}

export function kindOfMime(mime: string | undefined): FileKind {
  if (!mime) return 'document';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/') || mime === 'application/x-matroska') return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/** A file name safe to store and to send back: no paths, no control characters, ≤ 255 chars. */
export function sanitizeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^\.+/, '').trim();
  return (clean || 'file').slice(0, 255);
}
