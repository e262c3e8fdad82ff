import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { FileTooLargeError } from './storage.driver';

/** Bytes written between two background flushes. */
export const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * Smallest chunk {@link DurableFileSink} frees after writing it (with `releaseWritten`): the HTTP
 * parser's body buffers are up to 64 KiB; parsers keep small scratch buffers of their own (busboy's
 * boundary look-behind) that must never be touched.
 */
export const RELEASE_MIN_BYTES = 16 * 1024;

export interface DurableFileSinkOptions {
  /** More than this many bytes: FileTooLargeError before anything past it is written. */
  maxBytes?: number;
  flushEvery?: number;
  /** File offset of the first byte; without it the handle's own position (0 for a new file). */
  position?: number;
  /**
   * The chunks are nobody else's (an HTTP request body as the parser copied it out of the socket):
   * once written, each one that spans its whole ArrayBuffer is detached, which frees its memory at
   * once instead of leaving it to the garbage collector. Why: on Node ≥ 22 (V8 ≥ 12) 64 KiB body
   * buffers are not reclaimed by the cheap young-generation GC fast enough; dead ones pile up to V8's
   * external-memory limit (~64 MiB of RSS per upload) and are collected by repeated full
   * mark-compacts (~45 per GiB, half the CPU of an upload). See bench/RESULTS.md, "Node 26 uploads".
   */
  releaseWritten?: boolean;
}

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
    private readonly options: DurableFileSinkOptions = {},
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (err?: Error | null) => void): void {
    const buffers = chunks.map((c) => c.chunk);
    this.write$(buffers).then(() => callback(this.release(buffers)), callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.write$([chunk]).then(() => callback(this.release([chunk])), callback);
  }

  /** Frees the written chunks that are whole buffers of their own (see `releaseWritten`). */
  private release(buffers: Buffer[]): null {
    if (!this.options.releaseWritten) return null;
    for (const b of buffers) {
      const ab = b.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer; detached?: boolean };
      // Views of part of a buffer (the pooled small Buffers, a chunk cut at a multipart boundary) stay.
      if (b.byteOffset !== 0 || b.byteLength !== ab.byteLength || b.byteLength < RELEASE_MIN_BYTES || !ab.transfer || ab.detached) continue;
      try {
        ab.transfer(0); // detaches `ab`: its backing store is freed now
      } catch {
        // not detachable (a buffer its owner pinned): the GC frees it as before
      }
    }
    return null;
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
    const { maxBytes, flushEvery = FLUSH_EVERY_BYTES } = this.options;
    if (maxBytes !== undefined && this.bytes + length > maxBytes) {
      this.bytes += length;
      throw (this.error = new FileTooLargeError(maxBytes));
    }
    let offset = 0;
    while (offset < length) {
      // writev may write less than asked (a full disk, a signal): go on from where it stopped.
      const at = this.options.position === undefined ? undefined : this.options.position + this.bytes + offset;
      const { bytesWritten } = await this.handle.writev(offset === 0 ? buffers : remainder(buffers, offset), at);
      offset += bytesWritten;
    }
    this.bytes += length;
    this.unflushed += length;
    if (this.unflushed >= flushEvery) {
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
