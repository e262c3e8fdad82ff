import { DataStore, type Upload } from '@tus/utils';
import type { Readable } from 'node:stream';
import { type SniffedStream, sniff } from '../common/file-sniffer';
import { asTusError } from './tus-bridge';

/** Decides on the sniffed type of an upload's first bytes; throws to refuse the upload. */
export type FirstBytesCheck = (upload: Upload, sniffed: SniffedStream) => Promise<void> | void;

/**
 * A tus DataStore that sniffs the type of the bytes written at offset 0 (file-type's magic
 * numbers, as the single POST does) before they reach the wrapped store. A refused type removes
 * the whole upload and fails that first PATCH (or creation-with-upload POST) with the check's error.
 */
export class FirstBytesStore extends DataStore {
  constructor(
    private readonly inner: DataStore,
    private readonly check: FirstBytesCheck,
  ) {
    super();
    this.extensions = inner.extensions;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    if (offset !== 0) return this.inner.write(stream, id, offset);
    const sniffed = await sniff(stream);
    try {
      await this.check(await this.inner.getUpload(id), sniffed);
    } catch (err) {
      sniffed.stream.resume();
      await this.inner.remove(id).catch(() => undefined);
      throw asTusError(err);
    }
    return this.inner.write(sniffed.stream, id, offset);
  }

  override create(upload: Upload): Promise<Upload> {
    return this.inner.create(upload);
  }
  override remove(id: string): Promise<void> {
    return this.inner.remove(id);
  }
  override getUpload(id: string): Promise<Upload> {
    return this.inner.getUpload(id);
  }
  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.inner.declareUploadLength(id, length);
  }
  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }
  override getExpiration(): number {
    return this.inner.getExpiration();
  }
}
