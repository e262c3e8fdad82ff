import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, paginateListObjectsV2, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppConfig } from '../config/config';
import { contentDisposition, safeFileName } from './content-disposition';
import {
  assertExpiresIn,
  assertStorageKey,
  ByteLimit,
  ObjectNotFoundError,
  type PutOptions,
  type ServedFile,
  type SignedUrlOptions,
  type StorageDriver,
  STORAGE_KEY_PATTERN,
  type StoredObject,
} from './storage.driver';

export interface S3DriverOptions {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint (MinIO, R2, …); unset = AWS. Path-style addressing is always used. */
  endpoint?: string;
  /** Both or neither; neither = the SDK's default credential chain (env, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Multipart part size (min 5 MiB) and parts in flight: memory per upload ≈ partSize × (queueSize + 1). */
  partSize?: number;
  queueSize?: number;
}

/**
 * Files in an S3-compatible bucket. Uploads stream through lib-storage's multipart `Upload`;
 * downloads are presigned GETs the client fetches from the store directly.
 */
export class S3StorageDriver implements StorageDriver, OnModuleDestroy {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly logger = new Logger('Storage');

  constructor(options: S3DriverOptions) {
    this.bucket = options.bucket;
    this.partSize = options.partSize ?? 8 * 1024 * 1024;
    this.queueSize = options.queueSize ?? 2;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: true,
      credentials: options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
      // The SDK's default (WHEN_SUPPORTED) adds CRC32 checksums, with aws-chunked trailers on
      // streamed bodies, that many S3-compatible stores do not understand. Only where S3 requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  static fromConfig(config: AppConfig): S3StorageDriver {
    if (!config.S3_BUCKET) throw new Error('Invalid configuration: STORAGE_DRIVER=s3 needs S3_BUCKET.');
    if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
      throw new Error('Invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.');
    }
    return new S3StorageDriver({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  /**
   * Streams `body` through a byte counter into a multipart upload. Past `maxBytes` the counter
   * errors, the source stops being read and the upload is aborted (AbortMultipartUpload), so no
   * object and no parts remain. Below one part size it is a single PutObject sent only at the end.
   */
  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<{ size: number }> {
    assertStorageKey(key);
    const limit = new ByteLimit(opts.maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: limit, ContentType: opts.contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    const feeding = pipeline(body, limit);
    const [uploaded, fed] = await Promise.allSettled([upload.done(), feeding]);
    if (limit.error) {
      if (uploaded.status === 'rejected' && uploaded.reason !== limit.error) {
        // lib-storage aborts the multipart upload before rejecting; this is that abort failing.
        this.logger.warn(`Upload of ${key} cut off at ${limit.error.limit} bytes; cleaning up failed: ${uploaded.reason?.message}`);
      }
      throw limit.error;
    }
    if (uploaded.status === 'rejected') throw uploaded.reason;
    if (fed.status === 'rejected') throw fed.reason;
    return { size: limit.bytes };
  }

  async putFile(key: string, localPath: string, contentType?: string): Promise<{ size: number }> {
    return this.put(key, createReadStream(localPath), { contentType });
  }

  async downloadToFile(key: string, localPath: string): Promise<void> {
    assertStorageKey(key);
    let body: Readable;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      body = res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
    try {
      await pipeline(body, createWriteStream(localPath));
    } catch (err) {
      await rm(localPath, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  async read(key: string): Promise<Readable> {
    assertStorageKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  /** Streamed through the API (CopyObject stops at 5 GB): a rare operation (quarantine), of any size. */
  async move(from: string, to: string): Promise<void> {
    assertStorageKey(to);
    let body: Readable;
    try {
      body = await this.read(from);
    } catch (err) {
      if (err instanceof ObjectNotFoundError && (await this.exists(to))) return;
      throw err;
    }
    await this.put(to, body);
    await this.delete(from);
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteMany(keys: string[]): Promise<void> {
    keys.forEach(assertStorageKey);
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(`Could not delete ${failed.length} object(s), e.g. ${failed[0].Key}: ${failed[0].Code} ${failed[0].Message ?? ''}`.trim());
      }
    }
  }

  async exists(key: string): Promise<boolean> {
    assertStorageKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** A presigned GET; the store itself sends Content-Disposition (and Content-Type if given). */
  async signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    assertStorageKey(key);
    assertExpiresIn(opts.expiresIn);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(safeFileName(opts.fileName)),
      ResponseContentType: opts.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresIn });
  }

  /** Downloads come from the store through presigned URLs, never through the API. */
  async servedFile(): Promise<ServedFile | null> {
    return null;
  }

  /** Pages of 1000 through ListObjectsV2; tus `.info` companions do not match the key pattern. */
  async *list(): AsyncIterable<StoredObject> {
    for await (const page of paginateListObjectsV2({ client: this.client, pageSize: 1000 }, { Bucket: this.bucket })) {
      for (const object of page.Contents ?? []) {
        if (object.Key && STORAGE_KEY_PATTERN.test(object.Key) && object.LastModified) yield { key: object.Key, modifiedAt: object.LastModified };
      }
    }
  }
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
  }
  return false;
}
