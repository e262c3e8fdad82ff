import { Logger, type OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import { copyFile, type FileHandle, link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DownloadUrlSigner } from './download-url-signer';
import { DurableFileSink } from './durable-file-sink';
import {
  assertStorageKey,
  ObjectNotFoundError,
  type PutOptions,
  type ServedFile,
  type SignedUrlOptions,
  type StorageDriver,
  STORAGE_KEY_PATTERN,
  type StoredObject,
} from './storage.driver';

/** Temp files older than this are leftovers of a crashed process and are removed at boot. */
const STALE_TEMP_MS = 24 * 3600 * 1000;
const TEMP_DIR = '.tmp';

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
        // Counts, caps and writes, flushing to disk as it goes; done once all of it is synced.
        const sink = new DurableFileSink(handle, { maxBytes: opts.maxBytes, releaseWritten: opts.releaseWritten });
        await pipeline(body, sink);
        return { size: sink.bytes };
      });
    } finally {
      body.off('error', pending);
    }
  }

  /**
   * Stores a finished local file (a job's output) without copying its bytes when it can: a hard
   * link when the file is on the storage's file system, else a kernel-side copy (a reflink where the
   * file system has them). Synced to disk before it gets its name in the store, like `put`.
   */
  async putFile(key: string, localPath: string): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const size = await syncedSize(localPath);
    try {
      // The file is complete and on disk: its one new name appears at once, with all its bytes.
      await inDir(dirname(target), () => link(localPath, target));
      return { size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException)?.code !== 'EXDEV' && (err as NodeJS.ErrnoException)?.code !== 'EPERM') throw err;
    }
    // Another file system: a kernel-side copy into the temp dir (a reflink where the file system has them), synced, renamed into place.
    const tmp = this.tempPath(key);
    try {
      await inDir(dirname(tmp), () => copyFile(localPath, tmp, fsConstants.COPYFILE_FICLONE));
      await syncedSize(tmp);
      await renameIntoShard(tmp, target);
      return { size };
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
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

  async read(key: string): Promise<Readable> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (err) {
      if (err?.code === 'ENOENT') throw new ObjectNotFoundError(key);
      throw err;
    }
    return handle.createReadStream({ autoClose: true });
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    try {
      await renameIntoShard(this.pathOf(from), target);
    } catch (err) {
      if (err?.code !== 'ENOENT') throw err;
      if (!(await this.exists(to))) throw new ObjectNotFoundError(from);
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
    return this.signer.url(key, opts.fileName, opts.expiresIn, undefined, opts.contentType);
  }

  async servedFile(key: string): Promise<ServedFile | null> {
    const path = this.pathOf(key);
    const stats = await statOrNull(path);
    return stats?.isFile() ? { root: this.root, path: relative(this.root, path) } : null;
  }

  /** Walks the `ab/cd/` shard dirs (skipping `.tmp`, `.tus` and anything else not a shard). */
  async *list(): AsyncIterable<StoredObject> {
    const shard = /^[0-9a-f]{2}$/;
    for (const a of (await readdir(this.root).catch(() => [] as string[])).filter((n) => shard.test(n))) {
      for (const b of (await readdir(join(this.root, a)).catch(() => [] as string[])).filter((n) => shard.test(n))) {
        for (const key of await readdir(join(this.root, a, b)).catch(() => [] as string[])) {
          if (!STORAGE_KEY_PATTERN.test(key)) continue;
          const stats = await statOrNull(join(this.root, a, b, key));
          if (stats?.isFile()) yield { key, modifiedAt: stats.mtime };
        }
      }
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

  /** A fresh name in the storage's temp dir (same file system as the stored files, so rename is atomic); created by `inDir` when missing. */
  private tempPath(key: string): string {
    return join(this.root, TEMP_DIR, `${key}.${randomBytes(6).toString('hex')}.part`);
  }

  /**
   * Creates an exclusive temp file in the storage dir, lets `write` fill it, then renames it to
   * `target`. On any error the temp file is removed and nothing is stored.
   */
  private async writeAtomically<T>(key: string, target: string, write: (handle: FileHandle) => Promise<T>): Promise<T> {
    const tmp = this.tempPath(key);
    const handle = await inDir(dirname(tmp), () => open(tmp, 'wx'));
    try {
      const result = await write(handle);
      await handle.close(); // no-op when the writer already closed it
      await renameIntoShard(tmp, target);
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

/** Flushes a file's data to disk and returns its size. */
async function syncedSize(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    await handle.datasync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** Renames into a shard dir (see `inDir`). */
function renameIntoShard(from: string, to: string): Promise<void> {
  return inDir(dirname(to), () => rename(from, to));
}

/**
 * Runs `op`, which creates an entry in `dir`, and creates `dir` only when `op` finds it missing:
 * the temp and shard dirs almost always exist, so a put makes one file operation, not three.
 */
async function inDir<T>(dir: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code !== 'ENOENT') throw err;
    await mkdir(dir, { recursive: true });
    return op();
  }
}
