import { stat } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { Deadline } from './deadline';
import { MediaError } from './media.errors';
import { DOCUMENT_LIMITS } from './media.types';

const MB = 1024 * 1024;

/**
 * A zipped office document (docx, xlsx, pptx, odt, ods, odp) is refused before LibreOffice opens it
 * when it is a zip bomb: it expands past DOCUMENT_LIMITS.maxUnzippedBytes, or past ratioFloorBytes
 * to more than maxRatio times its size. Every entry is inflated once (and thrown away) rather than
 * trusting the central directory: yauzl fails an entry that inflates past its declared size, so a
 * lying directory is caught too. A truncated or corrupt archive is `unsupported_input`.
 */
export async function checkZippedDocument(path: string, deadline: Deadline): Promise<void> {
  const size = (await stat(path)).size;
  const limit = Math.min(DOCUMENT_LIMITS.maxUnzippedBytes, Math.max(DOCUMENT_LIMITS.ratioFloorBytes, size * DOCUMENT_LIMITS.maxRatio));
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((done, fail) => yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, z) => (err ? fail(err) : done(z))));
  } catch (err) {
    throw new MediaError('unsupported_input', 'The document is truncated or corrupt.', (err as Error).message);
  }
  try {
    let declared = 0;
    let inflated = 0;
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) return;
      deadline.require();
      declared += entry.uncompressedSize;
      if (declared > limit) throw bomb(limit, `declared ${declared} bytes`);
      if (entry.fileName.endsWith('/')) continue;
      const stream = await new Promise<NodeJS.ReadableStream>((done, fail) => zip.openReadStream(entry, (err, s) => (err ? fail(err) : done(s))));
      await pipeline(
        stream,
        new Writable({
          write(chunk: Buffer, _enc, next) {
            inflated += chunk.length;
            next(inflated > limit ? bomb(limit, `inflated ${inflated} bytes`) : undefined);
          },
        }),
      );
    }
  } catch (err) {
    if (err instanceof MediaError) throw err;
    throw new MediaError('unsupported_input', 'The document is truncated or corrupt.', (err as Error).message);
  } finally {
    zip.close();
  }
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((done, fail) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), done(entry));
    const onEnd = () => (cleanup(), done(undefined));
    const onError = (err: Error) => (cleanup(), fail(err));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function bomb(limit: number, detail: string): MediaError {
  return new MediaError('unsupported_input', `The document expands to more than ${Math.round(limit / MB)} MB: it is refused as a zip bomb.`, detail);
}
