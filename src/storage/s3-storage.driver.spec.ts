import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { newId } from '../common/ids';
import { S3StorageDriver } from './s3-storage.driver';
import { FileTooLargeError, InvalidStorageKeyError, ObjectNotFoundError } from './storage.driver';

// s3rver ships no types; this is the part of its API the test uses.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver: new (options: Record<string, unknown>) => S3rverServer = require('s3rver');

const BUCKET = 'dropline-test';
const MiB = 1024 * 1024;

/** Deterministic pseudo-random bytes, so a corrupted or reordered part would show. */
function bytes(size: number, seed = 'seed'): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let off = 0; off < size; off += block.length) {
    block.copy(out, off);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** Streams `data` in 64 KiB chunks and records how much was read from it. */
function chunked(data: Buffer): Readable & { served: number } {
  let served = 0;
  const stream = new Readable({
    read() {
      if (served >= data.length) return this.push(null);
      const chunk = data.subarray(served, served + 64 * 1024);
      served += chunk.length;
      stream.served = served;
      this.push(chunk);
    },
  }) as Readable & { served: number };
  stream.served = 0;
  return stream;
}

async function streamText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('S3StorageDriver against s3rver on loopback', () => {
  let dir: string;
  let server: S3rverServer;
  let driver: S3StorageDriver;
  let commands: string[];

  beforeAll(async () => {
    Logger.overrideLogger(['error']); // s3rver lacks AbortMultipartUpload: the driver's warning is expected
    dir = await mkdtemp(join(tmpdir(), 'dropline-s3rver-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, directory: join(dir, 'store'), silent: true, configureBuckets: [{ name: BUCKET }] });
    const { port } = await server.run();
    driver = new S3StorageDriver({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      partSize: 5 * MiB,
      queueSize: 2,
    });
    // Observe (not replace) what the SDK sends.
    driver.client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(context.commandName as string);
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
  });
  beforeEach(() => {
    commands = [];
  });
  afterAll(async () => {
    driver?.onModuleDestroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams a small file in, sees it exist, serves it via a presigned GET, copies it out, deletes it', async () => {
    const key = newId('obj');
    const data = bytes(300 * 1024);
    expect(await driver.exists(key)).toBe(false);
    expect(await driver.put(key, chunked(data), { contentType: 'image/png' })).toEqual({ size: data.length });
    expect(commands).toContain('PutObjectCommand');
    expect(await driver.exists(key)).toBe(true);

    const url = await driver.signedUrl(key, { fileName: 'Pho "to" é.png', expiresIn: 600, contentType: 'image/png' });
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${BUCKET}/${key}\\?`));
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('response-content-disposition=');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Pho _to_ _.png"; filename*=UTF-8''Pho%20%22to%22%20%C3%A9.png`);
    expect(res.headers.get('content-type')).toBe('image/png');

    // s3rver does not check SigV4 signatures, so tampering cannot be tested here; the presigner
    // signs the whole query (the response-* overrides included) and only the host header.
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('600');

    const out = join(dir, 'out.bin');
    await driver.downloadToFile(key, out);
    expect((await readFile(out)).equals(data)).toBe(true);

    await driver.delete(key);
    expect(await driver.exists(key)).toBe(false);
    expect((await fetch(url)).status).toBe(404);
    await expect(driver.delete(key)).resolves.toBeUndefined(); // idempotent
    await expect(driver.downloadToFile(key, out)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('uploads a large stream as multipart, byte-identical', async () => {
    const key = newId('obj');
    const data = bytes(11 * MiB + 123, 'multipart');
    expect(await driver.put(key, chunked(data), { maxBytes: 12 * MiB })).toEqual({ size: data.length });
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    expect(commands).toContain('CompleteMultipartUploadCommand');
    const res = await fetch(await driver.signedUrl(key, { fileName: 'big.bin', expiresIn: 60 }));
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    await driver.delete(key);
  });

  it('putFile uploads a local file; deleteMany removes several keys, missing ones included', async () => {
    const src = join(dir, 'local.txt');
    await writeFile(src, 'from disk');
    const [a, b] = [newId('obj'), newId('obj')];
    expect(await driver.putFile(a, src, 'text/plain')).toEqual({ size: 9 });
    await driver.put(b, Readable.from([Buffer.from('xyz')]));
    await driver.deleteMany([a, b, newId('obj')]);
    expect(await driver.exists(a)).toBe(false);
    expect(await driver.exists(b)).toBe(false);
  });

  it('move: a URL presigned for the old key finds nothing; moving again is a no-op; neither key is ObjectNotFoundError', async () => {
    const [from, to] = [newId('obj'), newId('obj')];
    await driver.put(from, Readable.from([Buffer.from('moved bytes')]));
    const url = await driver.signedUrl(from, { fileName: 'a.txt', expiresIn: 60 });
    expect((await fetch(url)).status).toBe(200);
    await driver.move(from, to);
    expect((await fetch(url)).status).toBe(404);
    expect(await driver.exists(from)).toBe(false);
    expect(await streamText(await driver.read(to))).toBe('moved bytes');
    await expect(driver.move(from, to)).resolves.toBeUndefined();
    await expect(driver.move(newId('obj'), newId('obj'))).rejects.toBeInstanceOf(ObjectNotFoundError);
    await driver.delete(to);
  });

  it('cuts off past maxBytes below one part: nothing is sent, nothing stored', async () => {
    const key = newId('obj');
    const body = chunked(bytes(8 * MiB));
    const err = await driver.put(key, body, { maxBytes: 1 * MiB }).catch((e) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect(err.limit).toBe(MiB);
    expect(body.served).toBeLessThan(3 * MiB);
    expect(body.destroyed).toBe(true);
    expect(commands).not.toContain('PutObjectCommand');
    expect(commands).not.toContain('CreateMultipartUploadCommand');
    expect(await driver.exists(key)).toBe(false);
  });

  it('cuts off past maxBytes mid-multipart: the upload is aborted, no object appears', async () => {
    const key = newId('obj');
    const body = chunked(bytes(30 * MiB));
    const err = await driver.put(key, body, { maxBytes: 7 * MiB }).catch((e) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect(body.served).toBeLessThan(12 * MiB);
    expect(commands).toContain('CreateMultipartUploadCommand');
    expect(commands).toContain('AbortMultipartUploadCommand');
    expect(commands).not.toContain('CompleteMultipartUploadCommand');
    expect(await driver.exists(key)).toBe(false);
    const listed = await driver.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    expect((listed.Contents ?? []).map((o) => o.Key)).not.toContain(key);
  });

  it('refuses bad keys and bad lifetimes', async () => {
    await expect(driver.put('../x', Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(driver.exists('a/b')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(driver.signedUrl(newId('obj'), { fileName: 'a', expiresIn: 8 * 24 * 3600 })).rejects.toThrow(RangeError);
  });
});
