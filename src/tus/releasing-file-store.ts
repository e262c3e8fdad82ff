import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DurableFileSink } from '../storage/durable-file-sink';

/**
 * @tus/file-store whose PATCH bodies are written the way the multipart intake writes its files:
 * through {@link DurableFileSink} with `releaseWritten`, so each request-body buffer is freed once it
 * is on disk instead of piling up until V8's external-memory limit forces full collections (Node ≥ 22:
 * +60 MiB of RSS per upload; bench/RESULTS.md, "Node 26 uploads"), and each PATCH is fsynced before
 * its new offset is answered. Same contract as FileStore.write: the new offset, or FILE_WRITE_ERROR.
 */
export class ReleasingFileStore extends FileStore {
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    // FileStore's own path resolution, with its check that the id stays inside the directory.
    const path = (this as unknown as { resolve(fileId: string): string }).resolve(id);
    const handle = await open(path, 'r+');
    const sink = new DurableFileSink(handle, { start: offset, releaseWritten: true });
    try {
      await pipeline(readable, sink);
    } catch {
      // @tus/server answers its own error objects ({ status_code, body }), as FileStore throws them.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw ERRORS.FILE_WRITE_ERROR;
    } finally {
      await handle.close();
    }
    return offset + sink.bytes;
  }
}
