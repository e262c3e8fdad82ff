import { randomBytes } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { newId } from '../../../src/common/ids';
import { DownloadUrlSigner } from '../../../src/storage/download-url-signer';
import { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE, type StorageDriver } from '../../../src/storage/storage.driver';
import { startTestApp, type TestApp } from '../../support/test-app';
import { assertContract, contractFetch } from '../../support/contract-check';

/**
 * Signed downloads served by the local driver, over real HTTP. The app listens on a random port
 * while PUBLIC_BASE_URL cannot know it in advance, so signed URLs are re-based onto the test
 * server (the signature covers the key, name and expiry, not the origin).
 */
describe('GET /v1/files/{key} (local storage, signed URLs)', () => {
  let t: TestApp;
  let dir: string;
  let storage: StorageDriver;
  const data = randomBytes(256 * 1024 + 17);
  const fileName = 'Résumé "final" 2024.pdf';
  let key: string;
  let url: string;

  const onServer = (signed: string) => {
    const u = new URL(signed);
    return `${t.baseUrl}${u.pathname}${u.search}`;
  };
  const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-files-'));
    t = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: 'e2e-signing-secret-0123456789abcdef' });
    storage = t.app.get(STORAGE);
    key = newId('obj');
    await storage.put(key, Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
    url = onServer(await storage.signedUrl(key, { fileName, expiresIn: 600 }));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the local driver, storing under STORAGE_DIR', async () => {
    expect(storage).toBeInstanceOf(LocalStorageDriver);
    expect((await readdir(dir, { recursive: true })).some((p) => String(p).endsWith(key))).toBe(true);
    expect(url).toMatch(new RegExp(`/v1/files/${key}\\?expires=\\d+&name=R%C3%A9sum%C3%A9%20%22final%22%202024\\.pdf&sig=[A-Za-z0-9_-]{43}$`));
  });

  it('200: the whole file, byte-identical, as an attachment with the original name', async () => {
    const res = await contractFetch(url);
    expect(res.status).toBe(200);
    expect((await body(res)).equals(data)).toBe(true);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="R_sum_ _final_ 2024.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%202024.pdf`);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HEAD: the same headers, no body', async () => {
    const res = await contractFetch(url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="R_sum_ _final_ 2024.pdf"/);
    expect((await body(res)).length).toBe(0);
  });

  it('206: a byte range, an open-ended range and a suffix range', async () => {
    const cases: [string, number, number][] = [
      ['bytes=10-19', 10, 19],
      ['bytes=262100-', 262100, data.length - 1],
      ['bytes=-100', data.length - 100, data.length - 1],
      ['bytes=0-999999999', 0, data.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await contractFetch(url, { headers: { range } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${data.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
      expect((await body(res)).equals(data.subarray(start, end + 1))).toBe(true);
    }
  });

  it('ignores Range when If-Range does not match (the file changed), honours it when it does', async () => {
    const full = await contractFetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } });
    expect(full.status).toBe(200);
    expect((await body(full)).length).toBe(data.length);
    const etag = full.headers.get('etag')!;
    const part = await contractFetch(url, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(part.status).toBe(206);
    expect((await body(part)).equals(data.subarray(0, 10))).toBe(true);
  });

  it('416: a range past the end, with the error envelope and Content-Range: bytes */size', async () => {
    const res = await contractFetch(url, { headers: { range: `bytes=${data.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${data.length}`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBeNull();
    const json = await res.json();
    expect(json).toEqual({ error: { code: 'range_not_satisfiable', message: `The requested range is outside the file (${data.length} bytes).` } });
  });

  it('304: a conditional GET whose ETag or date still matches gets no body', async () => {
    const full = await contractFetch(url);
    const etag = full.headers.get('etag')!;
    const lastModified = full.headers.get('last-modified')!;
    expect(etag).toMatch(/^(W\/)?"[0-9a-f]+-[0-9a-f]+"$/);
    await body(full);
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests (a reload).
    for (const headers of [{ 'if-none-match': etag }, { 'if-modified-since': lastModified }] as Record<string, string>[]) {
      expect(await conditionalGet(url, headers)).toEqual({ status: 304, bytes: 0 });
    }
    expect(await conditionalGet(url, { 'if-none-match': '"other"' })).toEqual({ status: 200, bytes: data.length });
  });

  it('403 invalid_signature: a changed signature, name, expiry or key', async () => {
    const other = newId('obj');
    await storage.put(other, Readable.from([Buffer.from('another file')]));
    const u = new URL(url);
    const tampered: string[] = [];
    const sig = u.searchParams.get('sig')!;
    tampered.push(url.replace(`sig=${sig}`, `sig=${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`));
    tampered.push(url.replace('name=R%C3%A9sum%C3%A9', 'name=Resume'));
    tampered.push(url.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 3600}`));
    tampered.push(url.replace(key, other));
    for (const bad of tampered) {
      expect(bad).not.toBe(url);
      const res = await contractFetch(bad);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'invalid_signature', message: expect.any(String) } });
    }
  });

  it('403 url_expired: a correctly signed URL past its expiry', async () => {
    const signer = t.app.get(DownloadUrlSigner);
    const expired = onServer(signer.url(key, fileName, 60, Date.now() - 120_000));
    const res = await contractFetch(expired);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'url_expired', message: expect.any(String) } });
  });

  it('400 when a signed-URL parameter is missing (the contract requires all three)', async () => {
    const res = await contractFetch(url.replace(/&sig=[^&]+/, ''));
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('validation_failed');
  });

  it('404 not_found once the object is deleted, with the URL still validly signed', async () => {
    const gone = newId('obj');
    await storage.put(gone, Readable.from([Buffer.from('short-lived')]));
    const goneUrl = onServer(await storage.signedUrl(gone, { fileName: 'a.txt', expiresIn: 600 }));
    expect((await contractFetch(goneUrl)).status).toBe(200);
    await storage.delete(gone);
    const res = await contractFetch(goneUrl);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('serves an empty file (200, Content-Length 0) and answers any range on it with 416', async () => {
    const empty = newId('obj');
    await storage.put(empty, Readable.from([]));
    const emptyUrl = onServer(await storage.signedUrl(empty, { fileName: 'empty.txt', expiresIn: 600 }));
    const res = await contractFetch(emptyUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    expect((await body(res)).length).toBe(0);
    expect((await contractFetch(emptyUrl, { headers: { range: 'bytes=0-' } })).status).toBe(416);
  });
});

function conditionalGet(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        try {
          assertContract('GET', url, { status: res.statusCode ?? 0, headers: res.headers });
          resolve({ status: res.statusCode ?? 0, bytes });
        } catch (err) {
          reject(err as Error);
        }
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}
