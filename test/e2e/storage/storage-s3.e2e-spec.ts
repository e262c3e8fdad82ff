import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { newId } from '../../../src/common/ids';
import { DownloadUrlSigner } from '../../../src/storage/download-url-signer';
import { S3StorageDriver } from '../../../src/storage/s3-storage.driver';
import { STORAGE, type StorageDriver } from '../../../src/storage/storage.driver';
import { startTestApp, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';
import { s3StorageEnv, startS3rver, type S3rverServer } from '../../support/s3rver';

/** STORAGE_DRIVER=s3 wires the S3 driver (here against s3rver on loopback); /v1/files serves nothing. */
describe('STORAGE_DRIVER=s3', () => {
  let dir: string;
  let server: S3rverServer;
  let t: TestApp;
  let storage: StorageDriver;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-s3-'));
    let endpoint: string;
    ({ server, endpoint } = await startS3rver(dir, ['e2e']));
    t = await startTestApp({
      ...s3StorageEnv(endpoint, 'e2e'),
      SIGNING_SECRET: 'e2e-signing-secret-0123456789abcdef',
    });
    storage = t.app.get(STORAGE);
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores through the S3 driver and hands out presigned URLs to the store', async () => {
    expect(storage).toBeInstanceOf(S3StorageDriver);
    const key = newId('obj');
    const data = Buffer.from('stored in a bucket');
    await storage.put(key, Readable.from([data]));
    const url = await storage.signedUrl(key, { fileName: 'b.txt', expiresIn: 60 });
    expect(url.startsWith(`http://127.0.0.1:`)).toBe(true);
    expect(url).toContain(`/e2e/${key}?`);
    const res = await fetch(url);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);

    // Even a correctly signed local-style URL finds nothing: with S3 the app serves no files.
    const local = new URL(t.app.get(DownloadUrlSigner).url(key, 'b.txt', 60));
    const here = await contractFetch(`${t.baseUrl}${local.pathname}${local.search}`);
    expect(here.status).toBe(404);
    expect((await here.json()).error.code).toBe('not_found');
  });
});
