import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import type { Submission, JobAccepted } from '../../../generated/types';
import { CUSTOM_MALWARE_MARKER, EICAR, startClamd, type TestClamd } from '../../support/clamd';
import { expectError } from '../../support/expect-error';
import { eventually, form, png, send } from '../../support/intake';
import { creditBalance, waitForJob } from '../../support/jobs';
import { serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';
import { contractFetch } from '../../support/contract-check';

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
 * Malware scanning with a real clamd (issue 22): its own signature database made offline with
 * sigtool (EICAR + a custom signature), its own socket. Submissions are `pending`, then `clean` or
 * `infected` (quarantined: download 403, not in the archive, `submission.quarantined` sent); a
 * job whose input is infected fails `input_infected`, refunded; with clamd stopped, files wait
 * `pending` (downloads 409 scan_pending) and become `clean` once it is back.
 */
describe('malware scanning (clamd)', () => {
  let clamd: TestClamd;
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  let image: Buffer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    clamd = await startClamd();
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-scan-'));
    t = await startTestApp({
      STORAGE_DIR: join(dir, 'files'),
      CLAMD_SOCKET: clamd.socket,
      CLAMD_TIMEOUT_S: '5',
      SCAN_RETRY_SECONDS: '1',
      WORKER_IN_PROCESS: 'true',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_DELAYS: '1,1',
    });
    owner = await t.newTenant();
    image = await png();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await clamd?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('scan');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Scanned', slug, ...body } as any });
    expect(response.status).toBe(201);
    return slug;
  }
  async function submission(slug: string, id: string): Promise<Submission> {
    return (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).data!.submission;
  }
  async function scanned(slug: string, id: string, status: string, timeoutMs = 15_000): Promise<Submission> {
    const s = await eventually(async () => {
      const current = await submission(slug, id);
      return current.scan.status === status ? current : undefined;
    }, timeoutMs);
    if (!s) throw new Error(`submission ${id} never became ${status}`);
    return s;
  }
  const download = (slug: string, id: string) => owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });

  it('quarantines the EICAR file (download 403, not in the zip, webhook sent) while a clean file downloads', async () => {
    const slug = await createDrop({ webhookUrl: receiver.url });
    const bad = await send(t, slug, { body: form({}, { data: EICAR, name: 'eicar.txt', type: 'text/plain' }) });
    const good = await send(t, slug, { body: form({}, { data: image, name: 'photo.png' }) });
    expect([bad.status, good.status]).toEqual([201, 201]);

    const infected = await scanned(slug, bad.body.submission.id, 'infected');
    expect(infected.scan).toMatchObject({ status: 'infected', signature: 'Eicar-Test-Signature', scannedAt: expect.any(String) });
    const clean = await scanned(slug, good.body.submission.id, 'clean');

    const refused = await download(slug, infected.id);
    expectError(refused.response, refused.error, 403, 'quarantined');
    const allowed = await download(slug, clean.id);
    expect(allowed.response.status).toBe(200);
    const bytes = Buffer.from(await (await fetch(allowed.data!.url)).arrayBuffer());
    expect(bytes.equals(image)).toBe(true);

    const zipFile = join(dir, `${slug}.zip`);
    const res = await contractFetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    await pipeline(Readable.fromWeb(res.body as any), createWriteStream(zipFile));
    expect(await zipNames(zipFile)).toEqual(['photo.png']);

    // created (pending) for both, scanned for both, quarantined for the EICAR file only.
    const events = () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { submission: Submission } });
    await eventually(async () => events().length >= 5, 20_000);
    const of = (id: string) => events().filter((e) => e.data.submission.id === id);
    expect(
      of(infected.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['submission.created', 'submission.quarantined', 'submission.scanned']);
    expect(
      of(clean.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['submission.created', 'submission.scanned']);
    const created = of(infected.id).find((e) => e.type === 'submission.created')!;
    expect(created.data.submission).toMatchObject({ isLate: false, scan: { status: 'pending' } });
    expect(of(infected.id).find((e) => e.type === 'submission.quarantined')!.data.submission.scan).toMatchObject({ status: 'infected', signature: 'Eicar-Test-Signature' });

    // The owner can still delete it.
    const deleted = await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: infected.id } } });
    expect(deleted.response.status).toBe(204);
    expect((await t.client().GET('/readyz')).data!.checks.scanning).toBe('ok');
  });

  it('a job whose input carries malware fails input_infected and is refunded', async () => {
    const tenant = await t.newTenant({ credits: 50 });
    const infectedPng = Buffer.concat([image, Buffer.from(CUSTOM_MALWARE_MARKER)]);
    const files = await serveFiles({ 'eicar.png': EICAR, 'bad.png': infectedPng, 'good.png': image });
    try {
      const before = await creditBalance(tenant.client);
      const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('bad.png') }, options: { width: 10 } } });
      const job = await waitForJob(tenant.client, (data as JobAccepted).id);
      expect(job).toMatchObject({ state: 'failed', refunded: true, error: { code: 'input_infected', message: expect.stringContaining('Dropline.Test.Custom') } });
      expect(await creditBalance(tenant.client)).toBe(before);
      // The EICAR file itself: scanned before the tool reads it (which would call it unsupported_input).
      const eicar = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('eicar.png') }, options: { width: 10 } } });
      expect(await waitForJob(tenant.client, (eicar.data as JobAccepted).id)).toMatchObject({ state: 'failed', refunded: true, error: { code: 'input_infected' } });
      expect(await creditBalance(tenant.client)).toBe(before);
      const ok = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('good.png') }, options: { width: 10 } } });
      expect((await waitForJob(tenant.client, (ok.data as JobAccepted).id)).state).toBe('completed');
    } finally {
      await files.close();
    }
  });

  it('with clamd stopped, files wait pending (download 409 scan_pending) and become clean once it is back', async () => {
    const slug = await createDrop();
    await clamd.stop();
    try {
      const sent = await Promise.all([1, 2, 3].map((i) => send(t, slug, { body: form({}, { data: image, name: `p${i}.png` }) })));
      expect(sent.map((s) => s.status)).toEqual([201, 201, 201]);
      const ids: string[] = sent.map((s) => s.body.submission.id);
      for (const id of ids) expect((await submission(slug, id)).scan.status).toBe('pending');
      const waiting = await download(slug, ids[0]);
      expectError(waiting.response, waiting.error, 409, 'scan_pending');
      expect(Number(waiting.response.headers.get('retry-after'))).toBeGreaterThan(0);
      const ready = await contractFetch(`${t.baseUrl}/readyz`);
      expect((await ready.json()).checks.scanning).toBe('down');
      // An infected file sent meanwhile waits too, and is caught once the scanner is back.
      const late = await send(t, slug, { body: form({}, { data: EICAR, name: 'eicar.txt', type: 'text/plain' }) });
      expect((await submission(slug, late.body.submission.id)).scan.status).toBe('pending');
      await clamd.start();
      for (const id of ids) await scanned(slug, id, 'clean', 20_000);
      await scanned(slug, late.body.submission.id, 'infected', 20_000);
      expect((await download(slug, ids[0])).response.status).toBe(200);
    } finally {
      await clamd.start().catch(() => undefined);
    }
  });
});
