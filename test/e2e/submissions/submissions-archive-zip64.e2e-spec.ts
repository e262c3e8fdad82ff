import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import * as yauzl from 'yauzl';
import { newId } from '../../../src/common/ids';
import { DropsService } from '../../../src/drops/drops.service';
import { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE } from '../../../src/storage/storage.driver';
import { IntakeService } from '../../../src/submissions/intake.service';
import { MiB, removeDir, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

const run = promisify(execFile);
const GiB = 1024 * MiB;
const ZIP32_LIMIT = 0xffffffff;

/**
 * A file written as it streams, with runs of zero bytes left as holes (seek, no write): the 4 GiB
 * of zeros in a sparse source cost no disk here either, and the result is still the exact stream.
 */
class SparseFileWriter extends Writable {
  private position = 0;
  private zeros = Buffer.alloc(MiB);

  constructor(private readonly handle: Awaited<ReturnType<typeof open>>) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (chunk.length > this.zeros.length) this.zeros = Buffer.alloc(chunk.length);
    const start = this.position;
    this.position += chunk.length;
    if (Buffer.compare(chunk, this.zeros.subarray(0, chunk.length)) === 0) return done();
    this.handle.write(chunk, 0, chunk.length, start).then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.handle.truncate(this.position).then(() => done(), done);
  }
}

/** CRC-32 of a file made of `head`, `size - head - tail` zero bytes, then `tail`. */
function crcOfSparse(size: number, head: Buffer, tail: Buffer): number {
  const zeros = Buffer.alloc(16 * MiB);
  let crc = crc32(head);
  for (let left = size - head.length - tail.length; left > 0; left -= zeros.length) crc = crc32(zeros.subarray(0, Math.min(left, zeros.length)), crc);
  return crc32(tail, crc) >>> 0;
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry, range: { start?: number; end?: number } = {}): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, range, (err, s) => (err ? reject(err) : resolve(s))));
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, range: { start: number; end: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await entryStream(zip, entry, range)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The CRC-32 of an entry's bytes as they are in the archive, and how many there are. */
async function crcOfEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<{ crc: number; size: number }> {
  let crc = 0;
  let size = 0;
  for await (const c of await entryStream(zip, entry)) {
    crc = crc32(c as Buffer, crc);
    size += (c as Buffer).length;
  }
  return { crc: crc >>> 0, size };
}

/**
 * The drop archive past ZIP's 32-bit limits: one entry over 4 GiB and entries that start past
 * 4 GiB, so sizes and offsets need ZIP64. The stored objects are sparse files (random head and
 * tail, a hole between), so no 4 GiB goes through the intake or onto the disk; the archive itself
 * streams over loopback HTTP into a sparse file that `unzip -t` and yauzl then check. About 25 s
 * alone on 2 cores (4 GiB through archiver's CRC and loopback, then read back once); longer on a busy machine.
 */
describe('submissions archive past 4 GiB (ZIP64)', () => {
  let dir: string;
  let out: string;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await tempStorageDir('zip64');
    out = await mkdtemp(join(tmpdir(), 'dropline-e2e-zip64-out-'));
    t = await startTestApp({ STORAGE_DIR: dir });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
    await rm(out, { recursive: true, force: true });
  });

  it(
    'a drop holding more than 4 GiB, one file above 4 GiB, comes out as a valid ZIP64 archive in bounded memory',
    async () => {
      const slug = uniqueSlug('zip64');
      expect((await owner.client.POST('/v1/drops', { body: { name: 'Huge', slug } as any })).response.status).toBe(201);
      const drop = await t.app.get(DropsService).findBySlug(slug);
      const storage = t.app.get<LocalStorageDriver>(STORAGE);
      const intake = t.app.get(IntakeService);

      // before.bin, huge.bin (4 GiB + 3 MiB: crosses the 32-bit size), after.bin (starts past 4 GiB).
      const files = [
        { name: 'before.bin', size: MiB + 17 },
        { name: 'huge.bin', size: 4 * GiB + 3 * MiB + 1 },
        { name: 'after.bin', size: 2 * MiB + 5 },
      ].map((f) => ({ ...f, key: newId('obj'), head: randomBytes(64 * 1024), tail: randomBytes(32 * 1024) }));
      for (const f of files) {
        await storage.put(f.key, Readable.from([f.head]));
        const path = storage.pathOf(f.key);
        await truncate(path, f.size);
        const handle = await open(path, 'r+');
        await handle.write(f.tail, 0, f.tail.length, f.size - f.tail.length);
        await handle.close();
        expect((await stat(path)).size).toBe(f.size);
        await intake.createFromStored(drop, {}, f.name, { storageKey: f.key, size: f.size, mime: 'application/octet-stream', kind: 'document', ext: undefined });
      }
      const expectedCrcs = files.map((f) => crcOfSparse(f.size, f.head, f.tail));

      const zipPath = join(out, 'huge.zip');
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = Date.now();
      try {
        const res = await fetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${owner.token}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/zip');
        const handle = await open(zipPath, 'w');
        try {
          await pipeline(Readable.fromWeb(res.body as any), new SparseFileWriter(handle));
        } finally {
          await handle.close();
        }
      } finally {
        clearInterval(sampler);
      }
      const growth = peak - before;
      console.log(
        `ZIP64 archive: ${Math.round((Date.now() - started) / 1000)} s, RSS ${Math.round(before / MiB)} → peak ${Math.round(peak / MiB)} MiB (+${Math.round(growth / MiB)} MiB)`,
      );
      // Server and this download share the process (both sides' stream buffers, GC lag on a loaded
      // machine: +5 to +66 MiB seen); an archive held in memory would add more than 4 GiB.
      expect(growth).toBeLessThan(128 * MiB);
      const total = files.reduce((sum, f) => sum + f.size, 0);
      expect((await stat(zipPath)).size).toBeGreaterThan(total);

      // Info-ZIP finds the entries through the ZIP64 end records, lists the 64-bit sizes, and checks
      // the bytes of the small entries, one past the 4 GiB offset, against their CRCs (all of
      // huge.bin would take it half a minute: yauzl and zlib check that one below).
      const { stdout } = await run('unzip', ['-tq', zipPath, 'before.bin', 'after.bin'], { maxBuffer: 1 << 20 });
      expect(stdout).toMatch(/No errors detected/);
      const listing = (await run('unzip', ['-Zl', zipPath], { maxBuffer: 1 << 20 })).stdout;
      expect(listing).toMatch(new RegExp(`\\s${files[1].size}\\s+[a-zA-Z]+\\s+${files[1].size}\\s.*huge\\.bin`));

      // yauzl: names, 64-bit sizes and offsets, CRCs equal to the sources', the bytes at both ends.
      const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false });
      try {
        const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
          const all: yauzl.Entry[] = [];
          zip.on('entry', (e: yauzl.Entry) => (all.push(e), zip.readEntry()));
          zip.on('end', () => resolve(all));
          zip.on('error', reject);
          zip.readEntry();
        });
        expect(entries.map((e) => e.fileName)).toEqual(files.map((f) => f.name));
        expect(entries.map((e) => e.uncompressedSize)).toEqual(files.map((f) => f.size));
        expect(entries.map((e) => e.compressedSize)).toEqual(files.map((f) => f.size));
        expect(entries.map((e) => e.crc32)).toEqual(expectedCrcs);
        expect(entries[1].uncompressedSize).toBeGreaterThan(ZIP32_LIMIT);
        expect(entries[2].relativeOffsetOfLocalHeader).toBeGreaterThan(ZIP32_LIMIT);
        // The central directory carries them in ZIP64 extra fields (id 0x0001).
        for (const e of entries.slice(1)) expect(e.extraFields.map((x) => x.id)).toContain(0x0001);
        for (const [i, f] of files.entries()) {
          const entry = entries[i];
          expect(await crcOfEntry(zip, entry)).toEqual({ crc: expectedCrcs[i], size: f.size });
          expect((await readEntry(zip, entry, { start: 0, end: f.head.length })).equals(f.head)).toBe(true);
          expect((await readEntry(zip, entry, { start: f.size - f.tail.length, end: f.size })).equals(f.tail)).toBe(true);
        }
      } finally {
        zip.close();
      }
    },
    10 * 60_000,
  );
});
