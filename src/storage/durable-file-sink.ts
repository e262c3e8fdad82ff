import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { FileTooLargeError } from './storage.driver';

/** Bytes written between two background flushes. */
export const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * The last stage of a local upload: writes to an open file, counts and caps the bytes (past
 * `maxBytes` it errors with FileTooLargeError before writing the chunk), and is durable when it
 * finishes — `final` waits for an fsync. To keep that fsync short on a large file, the data written so
 * far is flushed (`datasync`) in the background every FLUSH_EVERY_BYTES while the transfer goes on,
 * so the disk writes overlap the network instead of all happening after the last byte.
 * One stage instead of a byte-counting Transform plus fs.WriteStream: buffers go from the
 * reader to `writev` as they are. The caller owns (and closes) the handle.
 */
export class DurableFileSink extends Writable {
  bytes = 0;
  error?: FileTooLargeError;
  private unflushed = 0;
  private flushing: Promise<void> = Promise.resolve();
  private flushError?: Error;

  constructor(
    private readonly handle: FileHandle,
    private readonly maxBytes?: number,
    private readonly flushEvery = FLUSH_EVERY_BYTES,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (err?: Error | null) => void): void {
    this.write$(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.write$([chunk]).then(() => callback(), callback);
  }

  override _final(callback: (err?: Error | null) => void): void {
    // What the background flushes have not covered yet, and the metadata (size) with it.
    this.flushing
      .then(() => {
        if (this.flushError) throw this.flushError;
        return this.handle.sync();
      })
      .then(() => callback(), callback);
  }

  private async write$(buffers: Buffer[]): Promise<void> {
    if (this.flushError) throw this.flushError;
    const length = buffers.reduce((n, b) => n + b.length, 0);
    if (this.maxBytes !== undefined && this.bytes + length > this.maxBytes) {
      this.bytes += length;
      throw (this.error = new FileTooLargeError(this.maxBytes));
    }
    let offset = 0;
    while (offset < length) {
      // writev may write less than asked (a full disk, a signal): go on from where it stopped.
      const { bytesWritten } = await this.handle.writev(offset === 0 ? buffers : remainder(buffers, offset));
      offset += bytesWritten;
    }
    this.bytes += length;
    this.unflushed += length;
    if (this.unflushed >= this.flushEvery) {
      this.unflushed = 0;
      // One flush at a time; the next starts once the previous one is done.
      this.flushing = this.flushing
        .then(() => this.handle.datasync())
        .catch((err) => {
          this.flushError = err;
        });
    }
  }
}

/** The buffers from byte `offset` on. */
function remainder(buffers: Buffer[], offset: number): Buffer[] {
  const rest: Buffer[] = [];
  for (const b of buffers) {
    if (offset >= b.length) {
      offset -= b.length;
      continue;
    }
    rest.push(offset > 0 ? b.subarray(offset) : b);
    offset = 0;
  }
  return rest;
}
