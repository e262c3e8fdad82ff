import { stat } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE } from '../../../src/storage/storage.driver';
import { MiB, removeDir, sendStream, storedFiles, streamedForm, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

const UPLOAD_BYTES = 200 * MiB;
const MAX_GROWTH = 64 * MiB;

/**
 * The intake streams a file to storage without holding it in memory. The app runs in this
 * process, so this process's RSS is the server's plus the client's: the request body is
 * generated on the fly and written with node:http (see sendStream), never buffered here either. global.gc is unavailable, so the peak
 * during a 200 MiB upload is compared with the RSS just before it, after a warm-up upload.
 */
describe('public intake memory', () => {
  let t: TestApp;
  let dir: string;
  let owner: Tenant;
  let slug: string;

  beforeAll(async () => {
    dir = await tempStorageDir('memory');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant({ plan: 'pro' });
    slug = uniqueSlug('mem');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Big files', slug, maxFileSizeMB: 500 } });
    expect(response.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  const upload = (size: number, fileName: string) => {
    const { body, contentType } = streamedForm({ fields: { senderName: 'Big' }, fileName, size });
    return sendStream(t, slug, body, contentType);
  };

  it(`streams a ${UPLOAD_BYTES / MiB} MiB upload with RSS growth under ${MAX_GROWTH / MiB} MiB, storing every byte`, async () => {
    // Warm-up: code paths, pools and buffers allocated once.
    const warm = await upload(8 * MiB, 'warm-up.bin');
    expect(warm.status).toBe(201);
    await new Promise((r) => setTimeout(r, 200));

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let res;
    try {
      res = await upload(UPLOAD_BYTES, 'huge.bin');
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const growth = peak - baseline;
    console.log(
      `RSS grew ${(growth / MiB).toFixed(1)} MiB for a ${UPLOAD_BYTES / MiB} MiB upload (baseline ${(baseline / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB, ${res.ms} ms)`,
    );

    expect(res.status).toBe(201);
    expect(res.body.submission).toMatchObject({ fileName: 'huge.bin', fileSize: UPLOAD_BYTES, fileKind: 'document' });
    expect(growth).toBeLessThan(MAX_GROWTH);

    // Stored size = sent size: the row, the drop's counter and the file on disk.
    const drop = (await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).data!.drop;
    expect(drop.totalBytes).toBe(8 * MiB + UPLOAD_BYTES);
    const [{ storage_key: key }] = await t.app.get(DataSource).query('SELECT storage_key FROM submissions WHERE id = $1', [res.body.submission.id]);
    const storage = t.app.get<LocalStorageDriver>(STORAGE);
    expect((await stat(storage.pathOf(key))).size).toBe(UPLOAD_BYTES);
  }, 180_000);

  it('a 200 MiB upload to a 5 MB drop is cut off early: 413, the sender stops, nothing is kept', async () => {
    const small = uniqueSlug('mem-small');
    await owner.client.POST('/v1/drops', { body: { name: 'Small files', slug: small, maxFileSizeMB: 5 } });
    const filesBefore = await storedFiles(dir);
    const { body, contentType, produced } = streamedForm({ fileName: 'too-big.bin', size: UPLOAD_BYTES });
    const res = await sendStream(t, small, body, contentType);
    body.destroy(); // a sender stops when the answer comes
    console.log(`413 after the client produced ${(produced() / MiB).toFixed(1)} MiB of ${UPLOAD_BYTES / MiB} MiB`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 'file_too_large', message: expect.any(String) } });
    expect(produced()).toBeLessThan(UPLOAD_BYTES / 4);
    const drop = (await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug: small } } })).data!.drop;
    expect(drop).toMatchObject({ submissionCount: 0, totalBytes: 0 });
    expect(await storedFiles(dir)).toEqual(filesBefore);
  }, 60_000);
});
