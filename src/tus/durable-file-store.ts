import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DurableFileSink } from '../storage/durable-file-sink';

/**
 * @tus/file-store with the single POST's last stage: a PATCH's bytes go to {@link DurableFileSink}
 * at the upload's offset (buffers to `writev` as they come, the request's body buffers freed once
 * written), and the PATCH's 204 waits for its fsync — its `Upload-Offset` promises those bytes are
 * on disk, which @tus/file-store's own write stream (no fsync) did not. One sync per PATCH, not per
 * chunk. (Background flushes every 1 or 4 MiB, to shorten that sync, were no faster: a file that
 * grows makes each flush a journal commit of its own.)
 */
export class DurableFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const handle = await open(join(this.directory, id), 'r+');
    try {
      const sink = new DurableFileSink(handle, { position: offset, releaseWritten: true });
      try {
        await pipeline(readable, sink);
      } catch {
        // As @tus/file-store: the bytes written so far stay, the upload's size on disk says how many.
        // @tus/server answers its own `{status_code, body}` shape, not an Error.
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw ERRORS.FILE_WRITE_ERROR;
      }
      return offset + sink.bytes;
    } finally {
      await handle.close();
    }
  }
}
