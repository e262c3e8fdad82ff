import { type SniffedStream, sniff } from '../common/file-sniffer';
import { newId } from '../common/ids';
import type { IncomingFile } from '../common/multipart-form';
import { FileTooLargeError, type StorageDriver } from './storage.driver';

export interface StoredPart {
  storageKey: string;
  size: number;
  mime: string;
  kind: SniffedStream['kind'];
  /** The extension of the sniffed type, undefined when the bytes named none (file-sniffer.ts). */
  ext: string | undefined;
}

/**
 * Streams one uploaded file into storage under a generated key: the type is sniffed from
 * the first bytes (and may be refused by `accept` before anything is stored), the size is capped
 * while streaming, and a refused or oversize file leaves nothing behind. `tooLarge` builds the
 * caller's own 413 error.
 */
export async function storeFilePart(
  storage: StorageDriver,
  file: IncomingFile,
  options: { maxBytes: number; tooLarge: () => Error; accept?: (sniffed: SniffedStream) => void },
): Promise<StoredPart> {
  const sniffed = await sniff(file.stream, file.mimeType);
  try {
    options.accept?.(sniffed);
  } catch (err) {
    file.stream.resume();
    throw err;
  }
  const storageKey = newId('obj');
  let size: number;
  try {
    // The part's buffers are the HTTP parser's copies, read by nothing after the write: freed as stored.
    ({ size } = await storage.put(storageKey, sniffed.stream, { maxBytes: options.maxBytes, contentType: sniffed.mime, releaseWritten: true }));
  } catch (err) {
    throw err instanceof FileTooLargeError ? options.tooLarge() : err;
  }
  if (file.truncated) {
    // @fastify/multipart's own ceiling cut the stream short.
    await storage.delete(storageKey);
    throw options.tooLarge();
  }
  return { storageKey, size, mime: sniffed.mime, kind: sniffed.kind, ext: sniffed.ext };
}
