import { DeleteObjectCommand, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/utils';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { AppConfig } from '../config/config';
import { LocalStorageDriver } from '../storage/local-storage.driver';
import type { StorageDriver } from '../storage/storage.driver';
import { DurableFileStore } from './durable-file-store';

/** Part size of S3 multipart uploads behind tus: S3's minimum is 5 MiB; the page sends 8 MiB chunks. */
const S3_PART_SIZE = 8 * 1024 * 1024;

/**
 * Where incomplete tus uploads live, and how a finished one becomes a stored file under the same
 * key (the upload id) that the {@link StorageDriver} serves, without copying its bytes:
 * - local: @tus/file-store in `STORAGE_DIR/.tus` (same file system), each PATCH written and synced by
 *   {@link DurableFileStore}, renamed into place at the end;
 * - s3: @tus/s3-store in the same bucket, whose completed multipart upload already is object `<id>`;
 *   only its `<id>.info` companion is removed.
 */
export interface TusStorage {
  store: DataStore;
  /** Makes the finished upload `id` the stored object `id` and forgets the tus bookkeeping. */
  adopt(id: string): Promise<void>;
  /**
   * Removes an upload refused after its last byte: the tus bookkeeping and, on S3, the object its
   * completed multipart upload already is (the store's own `remove` only aborts open ones).
   */
  discard(id: string): Promise<void>;
}

/**
 * @tus/s3-store keeps each upload's `.info` in a per-process cache by default. With several API
 * processes that cache goes stale (an upload finished, removed or expired through another process
 * still looks open, or complete, here) and it never forgets abandoned uploads; the `.info` object
 * is small, so it is read from the bucket each time instead.
 */
class NoCache<T> implements KvStore<T> {
  async get(): Promise<T | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
}

export function createTusStorage(config: AppConfig, storage: StorageDriver): TusStorage {
  const expirationPeriodInMilliseconds = config.TUS_EXPIRY_SECONDS * 1000;
  if (config.STORAGE_DRIVER === 's3') {
    const bucket = config.S3_BUCKET!;
    const store = new S3Store({
      partSize: S3_PART_SIZE,
      expirationPeriodInMilliseconds,
      // Expiry is swept by listing multipart uploads (TusSweeper), not by bucket lifecycle tags.
      useTags: false,
      cache: new NoCache(),
      s3ClientConfig: {
        bucket,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: true,
        credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } : undefined,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
    const client = (store as unknown as { client: { send(c: unknown): Promise<unknown> } }).client;
    return {
      store,
      adopt: async (id) => {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${id}.info` }));
      },
      discard: async (id) => {
        await store.remove(id).catch(() => undefined);
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true } }));
      },
    };
  }
  if (!(storage instanceof LocalStorageDriver)) throw new Error('tus on local storage needs the local storage driver.');
  const directory = join(resolve(config.STORAGE_DIR), '.tus');
  const store = new DurableFileStore({ directory, expirationPeriodInMilliseconds });
  return {
    store,
    adopt: async (id) => {
      const target = storage.pathOf(id);
      await mkdir(dirname(target), { recursive: true });
      await rename(join(directory, id), target);
      await rm(join(directory, `${id}.json`), { force: true });
    },
    discard: (id) => store.remove(id),
  };
}
