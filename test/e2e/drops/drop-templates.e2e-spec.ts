import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import * as yauzl from 'yauzl';
import { StorageReconciliation } from '../../../src/retention/storage-reconciliation';
import type { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE } from '../../../src/storage/storage.driver';
import { contractFetch } from '../../support/contract-check';
import { expectError } from '../../support/expect-error';
import { eventually, form, png, removeDir, storedFiles, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { webhookContractErrors } from '../../support/webhook-contract';
import { startReceiver } from '../../support/webhook-receiver';

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

/**
 * Issue 20: a drop names a saved template (`processWith`) and every arriving file runs through its
 * steps as one pipeline job charged to the owner; the steps' files become the submission's
 * `outputs`, signed one by one (`?output=`) and zipped under `<output name>/`. Real PNGs, real
 * sharp tools in the in-process worker, decoded again with sharp.
 */
describe('drops running a template (processWith)', () => {
  let t: TestApp;
  let dir: string;
  let out: string;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];

  const STEPS = {
    thumb: { tool: 'image-thumbnail', options: { width: 64, height: 64 } },
    webp: { tool: 'image-convert', options: { format: 'webp' } },
  };

  beforeAll(async () => {
    dir = await tempStorageDir('drop-templates');
    out = await mkdtemp(join(tmpdir(), 'dropline-e2e-drop-templates-'));
    t = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', PUBLIC_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    await removeDir(dir);
    await rm(out, { recursive: true, force: true });
  });

  async function template(owner: Tenant, steps: Record<string, unknown> = STEPS): Promise<string> {
    const { response, data } = await owner.client.POST('/v1/templates', { body: { name: 'Web images', steps: steps as any } });
    expect(response.status).toBe(201);
    return data!.template.id;
  }

  async function drop(owner: Tenant, body: Record<string, unknown>): Promise<string> {
    const slug = uniqueSlug('tpl');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Processed', slug, ...body } as any });
    expect(response.status).toBe(201);
    return slug;
  }

  async function send(slug: string, data: Buffer | string, name: string, type: string) {
    const res = await submit(t, slug, form({ senderName: 'Ada' }, { name, data, type }));
    expect(res.status).toBe(201);
    return res.body.submission as { id: string; status: string };
  }

  /** The owner's view once the worker is done with the submission (a condition, polled). */
  async function settled(owner: Tenant, slug: string, id: string) {
    const done = await eventually(
      async () => {
        const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
        return data!.submission.status !== 'processing' ? data!.submission : null;
      },
      90_000,
      100,
    );
    if (!done) throw new Error(`submission ${id} still processing`);
    return done;
  }

  const link = (owner: Tenant, slug: string, id: string, query: { output?: string; processed?: boolean } = {}) =>
    owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id }, query } });

  it('runs the template on an arriving PNG: every step a downloadable output, decoded by sharp, and in the drop ZIP under its name', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const hook = await startReceiver();
    receivers.push(hook);
    const tpl = await template(owner);
    const slug = await drop(owner, { allowedKinds: 'image', processWith: tpl, webhookUrl: hook.url });
    expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).data!.drop.processWith).toBe(tpl);

    const photo = await png(200, 150);
    const sent = await send(slug, photo, 'photo.png', 'image/png');
    expect(sent.status).toBe('processing');
    const done = await settled(owner, slug, sent.id);
    expect(done).toMatchObject({ status: 'ready', processingError: null, processedFileName: null, fileName: 'photo.png' });
    // In the template's order, as the template reads back.
    const order = Object.keys((await owner.client.GET('/v1/templates/{id}', { params: { path: { id: tpl } } })).data!.template.steps);
    expect([...order].sort()).toEqual(['thumb', 'webp']);
    // Each step's file is named after it: no two outputs download under the same name.
    expect(done.outputs).toEqual(order.map((name) => ({ name, fileName: `photo-${name}.webp`, size: expect.any(Number), contentType: 'image/webp' })));
    // The pipeline is charged once, the sum of its steps (one credit each), to the owner.
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(18);

    const expected = { thumb: { width: 64, height: 64 }, webp: { width: 200, height: 150 } };
    for (const output of done.outputs) {
      const signed = await link(owner, slug, sent.id, { output: output.name });
      expect(signed.data).toMatchObject({ file: 'output', output: output.name, expiresIn: 3600 });
      const res = await contractFetch(signed.data!.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('content-disposition')).toContain(`photo-${output.name}.webp`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(output.size);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', ...expected[output.name as keyof typeof expected] });
    }

    // The original is still the original; the one-step `processed` file does not exist here.
    const original = await link(owner, slug, sent.id);
    expect(Buffer.from(await (await contractFetch(original.data!.url)).arrayBuffer()).equals(photo)).toBe(true);
    const processed = await link(owner, slug, sent.id, { processed: true });
    expectError(processed.response, processed.error, 409, 'processed_unavailable');
    const unknown = await link(owner, slug, sent.id, { output: 'poster' });
    expectError(unknown.response, unknown.error, 404, 'not_found');
    expect((unknown.error as any).error.message).toContain(`(outputs: ${order.join(', ')})`);
    const both = await link(owner, slug, sent.id, { output: 'thumb', processed: true });
    expectError(both.response, both.error, 400, 'validation_failed');

    // The ZIP: the original, then each output in its folder.
    const res = await fetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    const file = join(out, `${slug}.zip`);
    await pipeline(Readable.fromWeb(res.body as any), createWriteStream(file));
    const entries = await unzipAll(file);
    expect([...entries.keys()]).toEqual(['photo.png', ...order.map((name) => `${name}/photo-${name}.webp`)]);
    expect(entries.get('photo.png')!.equals(photo)).toBe(true);
    expect(await sharp(entries.get('thumb/photo-thumb.webp')).metadata()).toMatchObject({ format: 'webp', width: 64, height: 64 });
    expect(await sharp(entries.get('webp/photo-webp.webp')).metadata()).toMatchObject({ format: 'webp', width: 200, height: 150 });

    // submission.processed, as for an auto-conversion, carries the outputs.
    const hooks = (await hook.waitFor(2)).map((h) => ({ h, body: JSON.parse(h.body) }));
    const processedHook = hooks.find((x) => x.body.type === 'submission.processed')!;
    expect(webhookContractErrors(processedHook.h)).toEqual([]);
    expect(processedHook.body.data.submission).toMatchObject({ id: sent.id, status: 'ready', outputs: done.outputs });

    // The outputs are the submission's, not its jobs': with the job rows purged (JOB_RETENTION),
    // the storage reconciliation still finds them referenced, however old their files.
    const storage = t.app.get<LocalStorageDriver>(STORAGE);
    const db = t.app.get(DataSource);
    const keys = (await db.query('SELECT storage_key AS key FROM submission_outputs WHERE submission_id = $1', [sent.id])).map((r: { key: string }) => r.key);
    expect(keys).toHaveLength(2);
    await db.query('DELETE FROM jobs WHERE submission_id = $1', [sent.id]);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    for (const key of keys) await utimes(storage.pathOf(key), twoDaysAgo, twoDaysAgo);
    await eventually(() => t.app.get(StorageReconciliation).reconcile(), 10_000);
    for (const key of keys) expect([key, await storage.exists(key)]).toEqual([key, true]);

    // Deleting the submission deletes its outputs' files with its original.
    const before = await storedFiles(dir);
    expect((await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: sent.id } } })).response.status).toBe(204);
    for (const key of keys) expect([key, await storage.exists(key)]).toEqual([key, false]);
    expect(before.length - (await storedFiles(dir)).length).toBe(3);

    // So does deleting the drop.
    const second = await settled(owner, slug, (await send(slug, await png(40, 30), 'again.png', 'image/png')).id);
    expect(second.outputs.map((o) => o.name)).toEqual(order);
    const withSecond = await storedFiles(dir);
    expect((await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } })).response.status).toBe(204);
    expect(withSecond.length - (await storedFiles(dir)).length).toBe(3);
  }, 120_000);

  it('refuses a template that is unknown, another account’s, combined with autoConvertTo/autoCompress, or that a one-kind drop cannot feed', async () => {
    const owner = await t.newTenant();
    const stranger = await t.newTenant();
    const mine = await template(owner);
    const theirs = await template(stranger);
    const create = (body: Record<string, unknown>) => owner.client.POST('/v1/drops', { body: { name: 'x', ...body } as any });
    const refused = async (answer: { response: Response; error?: unknown }) => {
      expectError(answer.response, answer.error, 400, 'validation_failed');
      expect((answer.error as any).error.details.map((d: { path: string }) => d.path)).toEqual(['body/processWith']);
    };
    await refused(await create({ processWith: 'tpl_0000000000000000' }));
    await refused(await create({ processWith: theirs }));
    await refused(await create({ processWith: mine, autoConvertTo: 'webp' }));
    await refused(await create({ processWith: mine, autoCompress: true }));
    await refused(await create({ processWith: mine, allowedKinds: 'video' }));
    const malformed = await create({ processWith: 'not-a-template' });
    expectError(malformed.response, malformed.error, 400, 'validation_failed');

    // PATCH judges the drop as the change leaves it.
    const slug = await drop(owner, { autoConvertTo: 'webp' });
    const patch = (body: Record<string, unknown>) => owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: body as any });
    await refused(await patch({ processWith: mine }));
    await refused(await patch({ processWith: theirs, autoConvertTo: null }));
    const switched = await patch({ processWith: mine, autoConvertTo: null });
    expect(switched.data!.drop).toMatchObject({ processWith: mine, autoConvertTo: null, autoCompress: false });
    await refused(await patch({ autoCompress: true }));
    await refused(await patch({ allowedKinds: 'audio' }));
    expect((await patch({ processWith: null })).data!.drop.processWith).toBeNull();
  });

  it("a deleted template clears the drop's processWith: later files are kept as sent", async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const tpl = await template(owner);
    const slug = await drop(owner, { processWith: tpl });
    expect((await owner.client.DELETE('/v1/templates/{id}', { params: { path: { id: tpl } } })).response.status).toBe(204);
    expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).data!.drop.processWith).toBeNull();
    const sent = await send(slug, await png(20, 20), 'late.png', 'image/png');
    expect(sent.status).toBe('ready');
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: sent.id } } });
    expect(data!.submission).toMatchObject({ status: 'ready', outputs: [], processingError: null });
  });

  it('kept as sent, with the reason: an owner without the credits, a file of a kind the template does not take', async () => {
    const broke = await t.newTenant({ plan: 'pro', credits: 1 }); // the template costs 2
    const poor = await drop(broke, { processWith: await template(broke) });
    const unpaid = await send(poor, await png(20, 20), 'a.png', 'image/png');
    expect(unpaid.status).toBe('ready');
    const kept = (await broke.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug: poor, id: unpaid.id } } })).data!.submission;
    expect(kept).toMatchObject({ status: 'ready', outputs: [], processingError: { code: 'insufficient_credits', message: expect.stringMatching(/^Not processed: /) } });
    expect((await broke.client.GET('/v1/account')).data!.account.creditBalance).toBe(1);

    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = await drop(owner, { processWith: await template(owner) }); // allowedKinds any
    const text = await send(slug, 'just words', 'notes.txt', 'text/plain');
    expect(text.status).toBe('ready');
    const view = (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: text.id } } })).data!.submission;
    expect(view).toMatchObject({
      outputs: [],
      processingError: {
        code: 'unsupported_input',
        message: expect.stringMatching(/step "(thumb|webp)" \(image-(thumbnail|convert)\) takes image files; this file is a document file/),
      },
    });
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(20);
  });

  it('a run whose steps fail leaves the submission failed, naming the step, with the original downloadable', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = await drop(owner, { allowedKinds: 'image', processWith: await template(owner) });
    // PNG magic, then garbage: taken as an image at intake, undecodable by the tools.
    const broken = Buffer.concat([(await png(20, 20)).subarray(0, 16), Buffer.alloc(64, 7)]);
    const sent = await send(slug, broken, 'broken.png', 'image/png');
    const done = await settled(owner, slug, sent.id);
    expect(done).toMatchObject({ status: 'failed', outputs: [], processingError: { code: expect.any(String), message: expect.stringMatching(/^Step "(thumb|webp)" \(image-/) } });
    const original = await link(owner, slug, sent.id);
    expect(Buffer.from(await (await contractFetch(original.data!.url)).arrayBuffer()).equals(broken)).toBe(true);
    // The steps that did not complete are given back to the owner, as a pipeline job's are.
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(20);
  }, 120_000);

  it("setting processWith needs the scopes of the template's tools: a drops-only key is 403 insufficient_scope on create and on PATCH, nothing changed", async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const tpl = await template(owner);
    const dropsOnly = await t.newKey(owner.account.id, { scopes: ['drops:read', 'drops:write'] });
    const withImages = await t.newKey(owner.account.id, { scopes: ['drops:read', 'drops:write', 'image:write'] });
    const namesTheScope = (error: unknown) =>
      expect((error as { error: { message: string } }).error.message).toMatch(/step "(thumb|webp)" of template tpl_\w+ needs the image:write scope/);

    const slug = uniqueSlug('tpl');
    const created = await dropsOnly.client.POST('/v1/drops', { body: { name: 'Processed', slug, processWith: tpl } });
    expectError(created.response, created.error, 403, 'insufficient_scope');
    namesTheScope(created.error);
    expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).response.status).toBe(404);

    const plain = await drop(owner, {});
    const patched = await dropsOnly.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: plain } }, body: { processWith: tpl } });
    expectError(patched.response, patched.error, 403, 'insufficient_scope');
    namesTheScope(patched.error);
    expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug: plain } } })).data!.drop.processWith).toBeNull();

    // A key with the tools' scopes may; clearing processWith, or changing anything else, needs none of them.
    expect((await withImages.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: plain } }, body: { processWith: tpl } })).response.status).toBe(200);
    expect((await dropsOnly.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: plain } }, body: { name: 'Renamed' } })).response.status).toBe(200);
    expect((await dropsOnly.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: plain } }, body: { processWith: null } })).response.status).toBe(200);
    expect((await withImages.client.POST('/v1/drops', { body: { name: 'Processed', slug, processWith: tpl } })).response.status).toBe(201);
  });
});

/**
 * A drop's template runs as one pipeline job admitted like an auto-conversion (issue 10 item 2):
 * past the owner's in-flight limit it is paid at once and waits for a slot; the sender still gets
 * a 201. The uploads go to an API without a worker; a worker app on the same queues works them off.
 */
describe("drops running a template within the owner's in-flight limit", () => {
  let api: TestApp;
  let worker: TestApp | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = await tempStorageDir('drop-templates-slots');
    api = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'false' });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await removeDir(dir);
  });

  it('four arrivals on a free account (limit 2): all paid at once, never more than two pipelines at work, all four processed', async () => {
    const owner = await api.newTenant({ plan: 'free', credits: 10 });
    const { data: created } = await owner.client.POST('/v1/templates', {
      body: { name: 'Two steps', steps: { thumb: { tool: 'image-thumbnail', options: { width: 16 } }, webp: { tool: 'image-convert', options: { format: 'webp' } } } } as any,
    });
    const slug = uniqueSlug('tpls');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Busy', slug, processWith: created!.template.id } })).response.status).toBe(201);
    const image = await png(40, 30);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await submit(api, slug, form({}, { data: image, name: `p${i}.png`, type: 'image/png' }));
      expect(res.status).toBe(201); // never refused because the owner is busy
      expect(res.body.submission.status).toBe('processing');
      ids.push(res.body.submission.id);
    }
    // Two credits each, all paid now: the balance can never be overdrawn later.
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(2);

    const db = api.app.get(DataSource);
    // Pipelines with a step handed to the queue and not ended yet.
    const atWork = async (): Promise<number> =>
      (
        await db.query(
          "SELECT count(DISTINCT pipeline_id)::int AS n FROM jobs WHERE account_id = $1 AND pipeline_id IS NOT NULL AND state IN ('queued', 'running') AND enqueued_at IS NOT NULL",
          [owner.account.id],
        )
      )[0].n;
    expect(await atWork()).toBe(2);
    const waiting = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND pipeline_id IS NULL AND waiting_for_slot', [owner.account.id]);
    expect(waiting[0].n).toBe(2);

    worker = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'true', QUEUE_PREFIX: api.queuePrefix });
    const deadline = Date.now() + 120_000;
    let most = 0;
    for (;;) {
      most = Math.max(most, await atWork());
      // Polled in the database: the free plan's 5 requests/s would throttle an API poll.
      const rows: { status: string }[] = await db.query('SELECT status FROM submissions WHERE id = ANY($1)', [ids]);
      if (rows.every((r) => r.status !== 'processing')) break;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(most).toBeLessThanOrEqual(2);
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
    expect(data!.submissions.map((s) => [s.status, s.outputs.map((o) => o.name).sort()])).toEqual(ids.map(() => ['ready', ['thumb', 'webp']]));
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(2);
  }, 180_000);
});
