import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { expectError } from '../../support/expect-error';
import { makePng } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { webhookContractErrors } from '../../support/webhook-contract';
import { startReceiver } from '../../support/webhook-receiver';
import { contractFetch } from '../../support/contract-check';

/** docs/decisions.md §5: a drop converts arriving files through the jobs' tools, charged to its owner. */
describe('drop auto-conversion', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestApp({
      WORKER_IN_PROCESS: 'true',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      STORAGE_DIR: join(await mkdtemp(join(tmpdir(), 'dropline-auto-')), 'files'),
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function send(slug: string, file: Buffer, name: string) {
    const form = new FormData();
    form.append('senderName', 'Ada');
    form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), name);
    return contractFetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
  }

  async function waitReady(owner: Tenant, slug: string, id: string) {
    for (let i = 0; i < 200; i++) {
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
      if (data!.submission.status !== 'processing') return data!.submission;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('still processing');
  }

  it('a PNG sent to an autoConvertTo webp drop is downloadable as a valid WebP; the owner pays 1 credit', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 10 });
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Photos', slug, allowedKinds: 'image', autoConvertTo: 'webp', webhookUrl: receiver.url } });
    const png = await makePng(300, 200);
    const res = await send(slug, png, 'holiday.png');
    expect(res.status).toBe(201);
    const { submission } = await res.json();
    expect(submission.status).toBe('processing');

    const done = await waitReady(owner, slug, submission.id);
    expect(done).toMatchObject({ status: 'ready', processedFileName: 'holiday.webp', fileName: 'holiday.png', fileMime: 'image/png' });
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id }, query: { processed: true } } });
    expect(link.data).toMatchObject({ expiresIn: 3600, file: 'processed' });
    const file = await contractFetch(link.data!.url);
    expect(file.headers.get('content-disposition')).toContain('holiday.webp');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 300, height: 200 });
    const original = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id } } });
    expect(Buffer.from(await (await contractFetch(original.data!.url)).arrayBuffer()).equals(png)).toBe(true);
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(9);

    // submission.created, then submission.processed, both signed with the owner's secret.
    const hooks = await receiver.waitFor(2);
    const verifier = new Webhook(owner.account.webhookSecret);
    const events = hooks.map((h) => verifier.verify(h.body, h.headers as Record<string, string>) as { type: string; data: any });
    for (const h of hooks) expect(webhookContractErrors(h)).toEqual([]);
    expect(events.map((e) => e.type).sort()).toEqual(['submission.created', 'submission.processed']);
    expect(events.find((e) => e.type === 'submission.processed')!.data.submission).toMatchObject({ id: submission.id, status: 'ready', processedFileName: 'holiday.webp' });
  });

  it('without credits the file is kept as it is: ready, no processed file (409 processed_unavailable)', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 0 });
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Photos', slug, autoConvertTo: 'avif' } });
    const res = await send(slug, await makePng(), 'a.png');
    const { submission } = await res.json();
    expect(submission.status).toBe('ready');
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id }, query: { processed: true } } });
    expectError(link.response, link.error, 409, 'processed_unavailable');
    // The owner is told why: processingError names insufficient_credits.
    const seen = (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: submission.id } } })).data!.submission;
    expect(seen).toMatchObject({ status: 'ready', processedFileName: null, processingError: { code: 'insufficient_credits', message: expect.stringMatching(/credits/) } });
  });

  it('autoCompress re-encodes an image in its own format without metadata', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 10 });
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Squeeze', slug, autoCompress: true } });
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'someone' } } })
      .jpeg({ quality: 100 })
      .toBuffer();
    const { submission } = await (await send(slug, jpeg, 'big.jpg')).json();
    const done = await waitReady(owner, slug, submission.id);
    expect(done.processedFileName).toBe('big.jpg');
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id }, query: { processed: true } } });
    const out = Buffer.from(await (await contractFetch(link.data!.url)).arrayBuffer());
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(out.length).toBeLessThan(jpeg.length);
  });
});
