import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import * as yauzl from 'yauzl';
import { newId } from '../../../src/common/ids';
import { DropsService } from '../../../src/drops/drops.service';
import { STORAGE, type StorageDriver } from '../../../src/storage/storage.driver';
import { IntakeService } from '../../../src/submissions/intake.service';
import { expectError } from '../../support/expect-error';
import { eventually, form, MiB, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

const run = promisify(execFile);

/** Every entry of a ZIP file: name → bytes. */
async function unzipAll(path: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', () => resolve(out));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** GET /v1/drops/{slug}/submissions/archive: one streamed ZIP of a drop's submissions. */
describe('submissions archive', () => {
  let dir: string;
  let out: string;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await tempStorageDir('archive');
    out = await mkdtemp(join(tmpdir(), 'dropline-e2e-archive-out-'));
    t = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'true' });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
    await rm(out, { recursive: true, force: true });
  });

  async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('zip');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Zip me', slug, ...body } as any });
    expect(response.status).toBe(201);
    return slug;
  }

  async function download(slug: string, query = '', file = join(out, `${slug}.zip`)): Promise<{ status: number; headers: Headers; file: string; body?: any }> {
    const res = await fetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive${query}`, { headers: { authorization: `Bearer ${owner.token}` } });
    if (res.status !== 200) return { status: res.status, headers: res.headers, file, body: await res.json() };
    await pipeline(Readable.fromWeb(res.body as any), createWriteStream(file));
    return { status: res.status, headers: res.headers, file };
  }

  it('zips every submission under de-duplicated names, passes unzip -t, and honours the list filters', async () => {
    const slug = await createDrop();
    const a = await png(20, 20);
    const b = await png(30, 30);
    const ids: string[] = [];
    for (const [name, data] of [
      ['photo.png', a],
      ['photo.png', b],
      ['notes.txt', Buffer.from('hello')],
    ] as const) {
      const res = await submit(t, slug, form({ senderName: 'Ada' }, { name, data, type: 'application/octet-stream' }));
      expect(res.status).toBe(201);
      ids.push(res.body.submission.id);
    }
    await owner.client.PATCH('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: ids[1] } }, body: { isStarred: true } });

    const all = await download(slug);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/zip');
    expect(all.headers.get('content-disposition')).toContain(`${slug}.zip`);
    await run('unzip', ['-t', all.file]);
    const entries = await unzipAll(all.file);
    expect([...entries.keys()]).toEqual(['photo.png', 'photo (2).png', 'notes.txt']);
    expect(entries.get('photo.png')!.equals(a)).toBe(true);
    expect(entries.get('photo (2).png')!.equals(b)).toBe(true);
    expect(entries.get('notes.txt')!.toString()).toBe('hello');

    const starred = await download(slug, '?isStarred=true', join(out, 'starred.zip'));
    expect([...(await unzipAll(starred.file)).keys()]).toEqual(['photo.png']);
    const empty = await download(slug, '?isArchived=true', join(out, 'empty.zip'));
    await run('unzip', ['-t', empty.file]).catch((err) => expect(err.stdout + err.stderr).toMatch(/zipfile is empty|empty zipfile/));
    expect((await unzipAll(empty.file)).size).toBe(0);

    const bad = await download(slug, '?processed=maybe');
    expectError(bad, bad.body, 400, 'validation_failed');
    const stranger = await t.newTenant();
    const res = await fetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${stranger.token}` } });
    expectError(res, await res.json(), 404, 'not_found');
  });

  it('processed=true takes the converted file where one exists', async () => {
    const slug = await createDrop({ allowedKinds: 'image', autoConvertTo: 'webp' });
    const res = await submit(t, slug, form({}, { name: 'poster.png', data: await png(64, 48), type: 'image/png' }));
    expect(res.status).toBe(201);
    const ready = await eventually(
      async () => {
        const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
        return data!.submissions[0].status === 'ready' && data!.submissions[0].processedFileName ? data!.submissions[0] : null;
      },
      60_000,
      100,
    );
    expect(ready!.processedFileName).toBe('poster.webp');
    const zip = await download(slug, '?processed=true', join(out, 'processed.zip'));
    const entries = await unzipAll(zip.file);
    expect([...entries.keys()]).toEqual(['poster.webp']);
    expect(entries.get('poster.webp')!.subarray(8, 12).toString()).toBe('WEBP');
    const originals = await unzipAll((await download(slug, '', join(out, 'originals.zip'))).file);
    expect([...originals.keys()]).toEqual(['poster.png']);
  });

  it(
    'streams 1 GiB of submissions in constant memory (RSS growth < 64 MiB) into a ZIP that passes unzip -t',
    async () => {
      const slug = await createDrop({ maxFileSizeMB: 2048 });
      const drop = await t.app.get(DropsService).findBySlug(slug);
      const storage = t.app.get<StorageDriver>(STORAGE);
      const intake = t.app.get(IntakeService);
      const block = randomBytes(MiB);
      const sizes = [256, 256, 256, 256].map((mb) => mb * MiB);
      for (const size of sizes) {
        const key = newId('obj');
        await storage.put(
          key,
          Readable.from(
            (function* () {
              for (let sent = 0; sent < size; sent += MiB) yield block;
            })(),
          ),
        );
        await intake.createFromStored(drop, {}, `part.bin`, { storageKey: key, size, mime: 'application/octet-stream', kind: 'document', ext: undefined });
        expect(await storage.exists(key)).toBe(true);
      }

      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      let zip;
      try {
        zip = await download(slug, '', join(out, 'big.zip'));
      } finally {
        clearInterval(sampler);
      }
      expect(zip.status).toBe(200);
      const growth = peak - before;
      console.log(`archive of 1 GiB: RSS ${Math.round(before / MiB)} → peak ${Math.round(peak / MiB)} MiB (+${Math.round(growth / MiB)} MiB)`);
      expect(growth).toBeLessThan(64 * MiB);
      expect((await stat(zip.file)).size).toBeGreaterThan(1024 * MiB);
      const { stdout } = await run('unzip', ['-t', zip.file], { maxBuffer: 1 << 20 });
      expect(stdout).toMatch(/No errors detected/);
      expect(stdout).toContain('part (4).bin');
    },
    15 * 60_000,
  );
});
