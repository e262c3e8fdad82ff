import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import type { Submission } from '../../../generated/types';
import { CUSTOM_MALWARE_MARKER, EICAR, startClamd, type TestClamd } from '../../support/clamd';
import { contractFetch } from '../../support/contract-check';
import { expectError } from '../../support/expect-error';
import { eventually, form, png, send, storedFiles } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { DataSource } from 'typeorm';
import { StorageTombstonesRepository } from '../../../src/storage/storage-tombstones.repository';
import { STORAGE, type StorageDriver } from '../../../src/storage/storage.driver';
import { quarantineKey } from '../../../src/submissions/submission-quarantine';

/** The names of a ZIP file's entries. */
async function zipNames(path: string): Promise<string[]> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true });
  const names: string[] = [];
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      zip.readEntry();
    });
    zip.on('end', () => resolve(names));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * A download link made before the scan's verdict stops working once the file is quarantined, in
 * both scan modes. clamd is held stopped while the links are made, so the race is set up, not
 * hoped for.
 */
describe.each(['advisory', 'strict'] as const)('quarantine of files already linked (SCAN_MODE=%s)', (mode) => {
  let clamd: TestClamd;
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  let image: Buffer;

  beforeAll(async () => {
    clamd = await startClamd();
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-quarantine-'));
    t = await startTestApp({
      STORAGE_DIR: join(dir, 'files'),
      CLAMD_SOCKET: clamd.socket,
      CLAMD_TIMEOUT_S: '5',
      SCAN_RETRY_SECONDS: '1',
      SCAN_MODE: mode,
      WORKER_IN_PROCESS: 'true',
    });
    owner = await t.newTenant();
    image = await png(64, 48);
  });
  afterAll(async () => {
    await t?.close();
    await clamd?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function submission(slug: string, id: string): Promise<Submission> {
    return (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).data!.submission;
  }
  async function until(slug: string, id: string, done: (s: Submission) => boolean, what: string): Promise<Submission> {
    const s = await eventually(async () => {
      const current = await submission(slug, id);
      return done(current) ? current : undefined;
    }, 20_000);
    if (!s) throw new Error(`submission ${id} never became ${what}`);
    return s;
  }
  const link = (slug: string, id: string) => owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
  async function archiveNames(slug: string): Promise<string[]> {
    const zipFile = join(dir, `${slug}.zip`);
    const res = await contractFetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    await pipeline(Readable.fromWeb(res.body as any), createWriteStream(zipFile));
    return zipNames(zipFile);
  }
  async function expectQuarantined(url: string): Promise<void> {
    const res = await contractFetch(url);
    expectError(res, res.status === 403 ? await res.json() : `${res.status}: ${await res.text()}`, 403, 'quarantined');
  }

  it('a URL signed while the file was pending answers 403 quarantined once the scan finds malware', async () => {
    const slug = uniqueSlug('qrn');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Scanned', slug } })).response.status).toBe(201);
    await clamd.stop();
    let ids: string[];
    const early: string[] = [];
    try {
      const eicar = await send(t, slug, { body: form({}, { data: EICAR, name: 'eicar.txt', type: 'text/plain' }) });
      // A real PNG carrying the custom signature.
      const infectedPng = await send(t, slug, { body: form({}, { data: Buffer.concat([image, Buffer.from(CUSTOM_MALWARE_MARKER)]), name: 'photo.png' }) });
      expect([eicar.status, infectedPng.status]).toEqual([201, 201]);
      ids = [eicar.body.submission.id, infectedPng.body.submission.id];
      for (const id of ids) {
        expect((await submission(slug, id)).scan.status).toBe('pending');
        const answer = await link(slug, id);
        if (mode === 'advisory') {
          // Advisory: links are handed out before the verdict, and they work.
          expect(answer.response.status).toBe(200);
          early.push(answer.data!.url);
        } else {
          // Strict: no link before the verdict.
          expectError(answer.response, answer.error, 409, 'scan_pending');
        }
      }
      if (mode === 'advisory') {
        const bytes = Buffer.from(await (await contractFetch(early[0])).arrayBuffer());
        expect(bytes.equals(EICAR)).toBe(true);
        expect((await contractFetch(early[1])).status).toBe(200);
      }
    } finally {
      await clamd.start();
    }

    await until(slug, ids[0], (s) => s.scan.status === 'infected', 'infected');
    const infected = await until(slug, ids[1], (s) => s.scan.status === 'infected', 'infected');
    expect(infected.scan.signature).toBe('Dropline.Test.Custom');
    // The verdict is recorded after the files were moved: the first read that says infected already finds the URLs dead.
    for (const url of early) await expectQuarantined(url);
    // A Range request is no way round it.
    if (mode === 'advisory') expect((await contractFetch(early[0], { headers: { range: 'bytes=0-3' } })).status).toBe(403);

    for (const id of ids) {
      const refused = await link(slug, id);
      expectError(refused.response, refused.error, 403, 'quarantined');
    }
    expect(await archiveNames(slug)).toEqual([]);

    // Deleting the submissions removes the quarantined copies too.
    const quarantinedFiles = async () => (await storedFiles(join(dir, 'files'))).filter((p) => p.split('/').pop()!.startsWith('qrn_'));
    expect(await quarantinedFiles()).toHaveLength(2);
    for (const id of ids) {
      expect((await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).response.status).toBe(204);
    }
    expect(await quarantinedFiles()).toEqual([]);
  });

  it('a scan that died after moving the file (the row still pending, its old key gone) is finished by the sweep', async () => {
    const slug = uniqueSlug('qrn');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Scanned', slug } })).response.status).toBe(201);
    await clamd.stop();
    let id: string;
    try {
      const sent = await send(t, slug, { body: form({}, { data: EICAR, name: 'eicar.txt', type: 'text/plain' }) });
      expect(sent.status).toBe(201);
      id = sent.body.submission.id;
      // What SubmissionQuarantine does before it records the verdict, done here as by a process that then died.
      const [{ key }] = await t.app.get(DataSource).query('SELECT storage_key AS key FROM submissions WHERE id = $1', [id]);
      await t.app.get(DataSource).transaction((tx) => t.app.get(StorageTombstonesRepository).record(tx, [key], 'quarantined', new Date()));
      await t.app.get<StorageDriver>(STORAGE).move(key, quarantineKey(key));
      expect((await submission(slug, id)).scan.status).toBe('pending');
    } finally {
      await clamd.start();
    }
    const infected = await until(slug, id, (s) => s.scan.status === 'infected', 'infected');
    expect(infected.scan.signature).toBe('Eicar-Test-Signature');
    const [{ key: now }] = await t.app.get(DataSource).query('SELECT storage_key AS key FROM submissions WHERE id = $1', [id]);
    expect(now).toMatch(/^qrn_obj_/);
    const refused = await link(slug, id);
    expectError(refused.response, refused.error, 403, 'quarantined');
    expect((await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).response.status).toBe(204);
  });

  it('a clean file linked before its verdict keeps working (the move is for malware only)', async () => {
    const slug = uniqueSlug('qrn');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Scanned', slug } })).response.status).toBe(201);
    const sent = await send(t, slug, { body: form({}, { data: image, name: 'clean.png' }) });
    expect(sent.status).toBe(201);
    const clean = await until(slug, sent.body.submission.id, (s) => s.scan.status === 'clean', 'clean');
    const url = (await link(slug, clean.id)).data!.url;
    const bytes = Buffer.from(await (await contractFetch(url)).arrayBuffer());
    expect(bytes.equals(image)).toBe(true);
    expect(await archiveNames(slug)).toEqual(['clean.png']);
  });
});
