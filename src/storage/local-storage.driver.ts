import { Logger, type OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream, type Stats } from 'node:fs';
import { copyFile, type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DownloadUrlSigner } from './download-url-signer';
import {
  assertStorageKey,
  ByteLimit,
  ObjectNotFoundError,
  type PutOptions,
  type SignedUrlOptions,
  type StorageDriver,
} from './storage.driver';

/** Temp files older than this are leftovers of a crashed process and are removed at boot. */
const STALE_TEMP_MS = 24 * 3600 * 1000;
const TEMP_DIR = '.tmp';

/** A stored file opened for reading; whoever opens it must either stream it or close it. */
export interface OpenedFile {
  size: number;
  modifiedAt: Date;
  /** A stream over bytes start..end (inclusive), or the whole file. It closes the file when done. */
  stream(range?: { start: number; end: number }): Readable;
  close(): Promise<void>;
}

/**
 * Files on the local disk under STORAGE_DIR, sharded as `ab/cd/<key>` by the SHA-256 of the key.
 * Writes go to `<dir>/.tmp/` (same file system) and are renamed into place only once complete,
 * so a failed or oversize upload never leaves a partial file where a reader could see it.
 * Downloads are served by this app itself through HMAC-signed URLs (FilesController).
 */
export class LocalStorageDriver implements StorageDriver, OnModuleInit {
  readonly root: string;
  private readonly logger = new Logger('Storage');

  constructor(
    root: string,
    private readonly signer: DownloadUrlSigner,
  ) {
    this.root = resolve(root);
  }

  async onModuleInit(): Promise<void> {
    await this.sweepTemp(STALE_TEMP_MS);
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<{ size: number }> {
    const target = this.pathOf(key);
    // Until the pipeline below listens, an error on `body` would be an unhandled 'error' event;
    // the pipeline still sees it (the stream is errored) and rejects with it.
    const pending = () => undefined;
    body.on('error', pending);
    try {
      return await this.writeAtomically(key, target, async (handle) => {
        const limit = new ByteLimit(opts.maxBytes);
        // The write stream owns the handle: it fsyncs (flush) and closes it when done or destroyed.
        await pipeline(body, limit, handle.createWriteStream({ flush: true }));
        return { size: limit.bytes };
      });
    } finally {
      body.off('error', pending);
    }
  }

  async putFile(key: string, localPath: string): Promise<{ size: number }> {
    return this.put(key, createReadStream(localPath));
  }

  async downloadToFile(key: string, localPath: string): Promise<void> {
    const source = this.pathOf(key);
    try {
      await copyFile(source, localPath, fsConstants.COPYFILE_FICLONE);
    } catch (err) {
      if (err?.code === 'ENOENT' && !(await this.exists(key))) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteMany(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key)); // validate all before deleting any
    for (let i = 0; i < paths.length; i += 16) {
      await Promise.all(paths.slice(i, i + 16).map((path) => rm(path, { force: true })));
    }
  }

  async exists(key: string): Promise<boolean> {
    const stats = await statOrNull(this.pathOf(key));
    return stats?.isFile() ?? false;
  }

  async signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    return this.signer.url(key, opts.fileName, opts.expiresIn);
  }

  /** Opens a stored file for serving it; null when there is none. */
  async open(key: string): Promise<OpenedFile | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (err) {
      if (err?.code === 'ENOENT') return null;
      throw err;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      return {
        size: stats.size,
        modifiedAt: stats.mtime,
        stream: (range) => handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true }),
        close: () => handle.close(),
      };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  }

  /** The absolute path of a key's file. Throws on a key that is not a plain generated id. */
  pathOf(key: string): string {
    assertStorageKey(key);
    const hash = createHash('sha256').update(key).digest('hex');
    return join(this.root, hash.slice(0, 2), hash.slice(2, 4), key);
  }

  /** Removes temp files older than `maxAgeMs` (another process may be writing the recent ones). */
  async sweepTemp(maxAgeMs: number): Promise<void> {
    const dir = join(this.root, TEMP_DIR);
    const names = await readdir(dir).catch(() => [] as string[]);
    const cutoff = Date.now() - maxAgeMs;
    for (const name of names) {
      const path = join(dir, name);
      const stats = await statOrNull(path);
      if (stats && stats.mtimeMs < cutoff) await rm(path, { force: true }).catch(() => undefined);
    }
  }

  /**
   * Creates an exclusive temp file in the storage dir, lets `write` fill it, then renames it to
   * `target`. On any error the temp file is removed and nothing is stored.
   */
  private async writeAtomically<T>(key: string, target: string, write: (handle: FileHandle) => Promise<T>): Promise<T> {
    const tmpDir = join(this.root, TEMP_DIR);
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${key}.${randomBytes(6).toString('hex')}.part`);
    const handle = await open(tmp, 'wx');
    try {
      const result = await write(handle);
      await handle.close(); // no-op when the writer already closed it
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      return result;
    } catch (err) {
      await handle.close().catch(() => undefined);
      await rm(tmp, { force: true }).catch((rmErr) => this.logger.error(`Could not remove temp file ${tmp}: ${rmErr.message}`));
      throw err;
    }
  }
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (err) {
    if (err?.code === 'ENOENT' || err?.code === 'ENOTDIR') return null;
    throw err;
  }
}
