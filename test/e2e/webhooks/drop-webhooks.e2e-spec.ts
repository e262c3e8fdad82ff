import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { QUEUES } from '../../../src/queue/queue.module';
import { expectError } from '../../support/expect-error';
import { eventually, form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startPrivateRedis } from '../../support/private-redis';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { webhookContractErrors } from '../../support/webhook-contract';
import { type ReceivedWebhook, startReceiver } from '../../support/webhook-receiver';
import { contractFetch } from '../../support/contract-check';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type Delivery = {
  id: string;
  eventType: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { attemptedAt: string; statusCode: number | null; error: string | null; durationMs: number }[];
  nextAttemptAt: string | null;
  createdAt: string;
};

/**
 * Drop webhooks (docs/decisions.md §9): `submission.created` in the Standard Webhooks format,
 * sent from the queue (never inside the upload), retried, logged and replayable. A real receiver
 * on 127.0.0.1; retries 1 s apart (WEBHOOK_RETRY_DELAYS=1,1,1: at most 4 attempts).
 */
describe('drop webhooks', () => {
  let t: TestApp;
  let dir: string;
  let image: Buffer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dir = await tempStorageDir('webhooks');
    t = await startTestApp({
      STORAGE_DIR: dir,
      WORKER_IN_PROCESS: 'true',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_DELAYS: '1,1,1',
      PUBLIC_RATE_LIMIT: '100000',
    });
    image = await png();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    await removeDir(dir);
  });

  async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }
  async function dropWithWebhook(owner: Tenant, url: string | null): Promise<string> {
    const slug = uniqueSlug();
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Hooked', slug, ...(url ? { webhookUrl: url } : {}) } });
    expect(response.status).toBe(201);
    return slug;
  }
  async function upload(slug: string, name = 'photo.png') {
    const res = await submit(t, slug, form({ senderName: 'Grace', senderEmail: 'grace@example.com', message: 'hi' }, { data: image, name, type: 'image/png' }));
    expect(res.status).toBe(201);
    return res;
  }
  async function deliveries(owner: Tenant, query: { status?: Delivery['status']; limit?: number; cursor?: string } = {}) {
    const { response, data } = await owner.client.GET('/v1/webhook-deliveries', { params: { query } });
    expect(response.status).toBe(200);
    return data as { deliveries: Delivery[]; nextCursor: string | null };
  }
  /** The account's only delivery, once it has left `pending` with at least `attempts` attempts. */
  async function settled(owner: Tenant, attempts = 1, timeoutMs = 15_000): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = (await deliveries(owner)).deliveries;
      const d = list[0];
      if (d && d.status !== 'pending' && d.attempts.length >= attempts) return d;
      if (Date.now() > deadline) throw new Error(`delivery not settled: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const verify = (owner: Tenant, hook: ReceivedWebhook) =>
    new Webhook(owner.account.webhookSecret).verify(hook.body, hook.headers as Record<string, string>) as { type: string; timestamp: string; data: any };

  it('submission.created arrives signed in the Standard Webhooks format', async () => {
    const owner = await t.newTenant();
    const r = await receiver();
    const slug = await dropWithWebhook(owner, r.url);
    const res = await upload(slug);
    const [hook] = await r.waitFor(1);

    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]{16}$/);
    expect(hook.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);

    const event = verify(owner, hook);
    expect(webhookContractErrors(hook)).toEqual([]);
    expect(Object.keys(event).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(event.type).toBe('submission.created');
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const id = res.body.submission.id;
    const owned = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
    expect(event.data).toEqual({ drop: { slug, name: 'Hooked' }, submission: owned.data!.submission });
    expect(event.data.submission).toMatchObject({ senderEmail: 'grace@example.com', fileMime: 'image/png', fileKind: 'image' });

    // The signature covers the body, and only this account's secret verifies it.
    expect(() => new Webhook(owner.account.webhookSecret).verify(hook.body.replace('Hooked', 'Hacked'), hook.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(owner.account.webhookSecret).verify(hook.body, { ...(hook.headers as Record<string, string>), 'webhook-id': 'msg_other' })).toThrow();
    const stranger = await t.newTenant();
    expect(() => verify(stranger, hook)).toThrow();

    const d = await settled(owner);
    expect(d).toMatchObject({ eventType: 'submission.created', url: r.url, status: 'succeeded', nextAttemptAt: null });
    expect(d.attempts).toEqual([{ attemptedAt: expect.any(String), statusCode: 204, error: null, durationMs: expect.any(Number) }]);
  });

  it('on the free plan too (job webhooks are pro/max; drop webhooks are not)', async () => {
    const owner = await t.newTenant({ plan: 'free' });
    const r = await receiver();
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    const [hook] = await r.waitFor(1);
    expect(verify(owner, hook).type).toBe('submission.created');
  });

  it('the upload does not wait for the receiver (it answers only when the test lets it)', async () => {
    const owner = await t.newTenant();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const r = await receiver(() => ({ status: 200, until: held }));
    const slug = await dropWithWebhook(owner, r.url);
    // An upload that waited for the receiver would never answer: the receiver is held until below.
    const res = await upload(slug);
    expect(res.status).toBe(201);
    await r.waitFor(1);
    expect((await deliveries(owner)).deliveries.map((d) => d.status)).toEqual(['pending']);
    release();
    const d = await settled(owner, 1, 10_000);
    expect(d.status).toBe('succeeded');
    expect(d.attempts).toHaveLength(1);
  });

  it('retries a failing receiver: 500, 500, then 200 is three attempts and succeeded', async () => {
    const owner = await t.newTenant();
    const r = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    const hooks = await r.waitFor(3);
    expect(new Set(hooks.map((h) => h.headers['webhook-id'])).size).toBe(1);
    for (const h of hooks) expect(verify(owner, h).type).toBe('submission.created'); // each attempt signed afresh
    const d = await settled(owner, 3);
    expect(d.status).toBe('succeeded');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(d.nextAttemptAt).toBeNull();
    // About a second apart (WEBHOOK_RETRY_DELAYS=1,1,1).
    const at = d.attempts.map((a) => Date.parse(a.attemptedAt));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(900);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received).toHaveLength(3);
  });

  it('a 410 stops the retries at once: one attempt, failed', async () => {
    const owner = await t.newTenant();
    const r = await receiver(() => ({ status: 410 }));
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    await r.waitFor(1);
    const d = await settled(owner);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([410]);
    expect(d.nextAttemptAt).toBeNull();
    await new Promise((res) => setTimeout(res, 2500)); // longer than a retry delay
    expect(r.received).toHaveLength(1);
  });

  it('gives up after the last retry (1 + 3 attempts); a 3xx counts as a failure and is not followed', async () => {
    const owner = await t.newTenant();
    const target = await receiver(() => ({ status: 200 }));
    const r = await receiver((n) => (n % 2 ? { status: 503 } : { status: 302, headers: { location: target.url } }));
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    await r.waitFor(4);
    const d = await settled(owner, 4);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([503, 302, 503, 302]);
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received).toHaveLength(4);
    expect(target.received).toHaveLength(0);
  });

  it('an unreachable receiver is recorded as an error and retried', async () => {
    const owner = await t.newTenant();
    const r = await receiver();
    const url = r.url;
    await r.close(); // nothing listens there any more
    const slug = await dropWithWebhook(owner, url);
    await upload(slug);
    const d = await settled(owner, 4);
    expect(d.status).toBe('failed');
    expect(d.attempts).toHaveLength(4);
    for (const a of d.attempts) expect(a).toMatchObject({ statusCode: null, error: expect.any(String) });
  });

  it('replay: 202, and the same event arrives again with the same webhook-id', async () => {
    const owner = await t.newTenant();
    const r = await receiver((n) => ({ status: n === 1 ? 410 : 200 }));
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    await r.waitFor(1);
    const failed = await settled(owner);
    expect(failed.status).toBe('failed');

    const replay = await owner.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: failed.id } } });
    expect(replay.response.status).toBe(202);
    expect(replay.data!.delivery).toMatchObject({ id: failed.id, status: 'pending', eventType: 'submission.created' });
    const hooks = await r.waitFor(2);
    expect(hooks[1].headers['webhook-id']).toBe(hooks[0].headers['webhook-id']);
    expect(hooks[1].body).toBe(hooks[0].body);
    expect(verify(owner, hooks[1]).type).toBe('submission.created');
    const d = await settled(owner, 2);
    expect(d.status).toBe('succeeded');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([410, 200]);
  });

  it('overlapping replays of a pending delivery: every attempt sent is recorded, within the retry budget', async () => {
    const owner = await t.newTenant();
    const r = await receiver(() => ({ status: 500, delayMs: 100 }));
    const slug = await dropWithWebhook(owner, r.url);
    await upload(slug);
    await r.waitFor(1);
    const [d] = (await deliveries(owner)).deliveries;
    // A retry is scheduled; three replays now start three more sends of the same delivery at once.
    const replays = await Promise.all([0, 1, 2].map(() => owner.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: d.id } } })));
    expect(replays.map((x) => x.response.status)).toEqual([202, 202, 202]);
    const settledDelivery = await settled(owner, 4);
    await new Promise((res) => setTimeout(res, 2500)); // past any retry still scheduled
    const [after] = (await deliveries(owner)).deliveries;
    expect(after.status).toBe('failed');
    // Before the fix the attempts were written back as [...read, new]: 8 sent, 4 recorded.
    expect(after.attempts).toHaveLength(r.received.length);
    expect(after.attempts.length).toBeGreaterThanOrEqual(4);
    expect(after.attempts.length).toBeLessThanOrEqual(4 + 3); // the budget, plus sends already in flight
    expect(after.attempts.every((a) => a.statusCode === 500)).toBe(true);
    expect(new Set(r.received.map((h) => h.headers['webhook-id']))).toEqual(new Set([r.received[0].headers['webhook-id']]));
    expect(settledDelivery.id).toBe(d.id);
  }, 30_000);

  it("replay: 404 for an unknown delivery and for another account's", async () => {
    const owner = await t.newTenant();
    const r = await receiver();
    await upload(await dropWithWebhook(owner, r.url));
    const d = await settled(owner);
    const stranger = await t.newTenant();
    const theirs = await stranger.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: d.id } } });
    expectError(theirs.response, theirs.error, 404, 'not_found');
    const unknown = await owner.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: 'whd_0000000000000000' } } });
    expectError(unknown.response, unknown.error, 404, 'not_found');
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(1);
  });

  it('the delivery log: newest first, paged, filtered by status, per account', async () => {
    const owner = await t.newTenant();
    const ok = await receiver(() => ({ status: 200 }));
    const gone = await receiver(() => ({ status: 410 }));
    const okSlug = await dropWithWebhook(owner, ok.url);
    const goneSlug = await dropWithWebhook(owner, gone.url);
    await upload(okSlug, 'a.png');
    await upload(goneSlug, 'b.png');
    await upload(okSlug, 'c.png');
    await ok.waitFor(2);
    await gone.waitFor(1);
    let all: Delivery[] = [];
    for (let i = 0; i < 100; i++) {
      all = (await deliveries(owner)).deliveries;
      if (all.length === 3 && all.every((d) => d.status !== 'pending')) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(all.map((d) => d.url)).toEqual([ok.url, gone.url, ok.url]);
    expect(all.map((d) => d.eventType)).toEqual(['submission.created', 'submission.created', 'submission.created']);
    expect(all.map((d) => d.status)).toEqual(['succeeded', 'failed', 'succeeded']);

    const page1 = await deliveries(owner, { limit: 2 });
    expect(page1.deliveries.map((d) => d.id)).toEqual(all.slice(0, 2).map((d) => d.id));
    const page2 = await deliveries(owner, { limit: 2, cursor: page1.nextCursor! });
    expect(page2.deliveries.map((d) => d.id)).toEqual([all[2].id]);
    expect(page2.nextCursor).toBeNull();

    expect((await deliveries(owner, { status: 'failed' })).deliveries.map((d) => d.url)).toEqual([gone.url]);
    expect((await deliveries(owner, { status: 'succeeded' })).deliveries).toHaveLength(2);
    expect((await deliveries(owner, { status: 'pending' })).deliveries).toHaveLength(0);

    const stranger = await t.newTenant();
    expect((await deliveries(stranger)).deliveries).toEqual([]);

    const bad = await contractFetch(`${t.baseUrl}/v1/webhook-deliveries?status=lost`, { headers: { authorization: `Bearer ${owner.token}` } });
    expectError(bad, await bad.json(), 400, 'validation_failed');
  });

  it('scopes: webhooks:read to list, webhooks:write to replay', async () => {
    const owner = await t.newTenant();
    const r = await receiver();
    await upload(await dropWithWebhook(owner, r.url));
    const d = await settled(owner);

    const noRead = await t.newKey(owner.account.id, { scopes: ['drops:read', 'drops:write', 'webhooks:write'] });
    const list = await noRead.client.GET('/v1/webhook-deliveries');
    expectError(list.response, list.error, 403, 'insufficient_scope');
    expect(list.error!.error.message).toContain('webhooks:read');

    const readOnly = await t.newKey(owner.account.id, { scopes: ['webhooks:read'] });
    expect((await readOnly.client.GET('/v1/webhook-deliveries')).response.status).toBe(200);
    const replay = await readOnly.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: d.id } } });
    expectError(replay.response, replay.error, 403, 'insufficient_scope');
    expect(replay.error!.error.message).toContain('webhooks:write');
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(1);

    const anonymous = await t.client().GET('/v1/webhook-deliveries');
    expectError(anonymous.response, anonymous.error, 401, 'unauthorized');
  });

  it('no webhookUrl, no delivery; a refused upload sends nothing', async () => {
    const owner = await t.newTenant();
    const r = await receiver();
    await upload(await dropWithWebhook(owner, null));
    const imageOnly = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Images', slug: imageOnly, allowedKinds: 'image', webhookUrl: r.url } });
    const refused = await submit(t, imageOnly, form({}, { data: 'text', name: 'x.png' }));
    expect(refused.status).toBe(415);
    await new Promise((res) => setTimeout(res, 500));
    expect((await deliveries(owner)).deliveries).toEqual([]);
    expect(r.received).toHaveLength(0);
  });
});

/**
 * Redis down: the upload must still be answered (its file is stored and its row committed) and the
 * delivery queued once Redis is back. A private Redis the test can stop; no worker, so nothing
 * else in the shared database is touched.
 */
describe('drop webhooks while Redis is down', () => {
  let t: TestApp;
  let dir: string;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;

  let quiet: jest.SpyInstance;

  beforeAll(async () => {
    // BullMQ prints every failed reconnect to the console while Redis is down.
    quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    redis = await startPrivateRedis();
    dir = await tempStorageDir('webhooks-redis');
    t = await startTestApp({ STORAGE_DIR: dir, REDIS_URL: redis.url, WORKER_IN_PROCESS: 'false', PUBLIC_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    redis?.stop();
    await removeDir(dir);
    quiet.mockRestore();
  });

  it('the upload answers 201 within seconds, and the delivery is queued when Redis returns', async () => {
    const owner = await t.newTenant();
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Hooked', slug, webhookUrl: 'http://127.0.0.1:9/hook' } });
    const queue = t.app.get<Queue>(getQueueToken(QUEUES.webhooks));

    redis.stop();
    // An upload that waited for Redis would hang until jest's test timeout.
    const res = await submit(t, slug, form({}, { data: await png(), name: 'while-down.png' }));
    expect(res.status).toBe(201);
    const id = res.body.submission.id;
    const got = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
    expect(got.data!.submission.fileName).toBe('while-down.png');
    const download = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
    expect((await contractFetch(download.data!.url)).status).toBe(200); // the file was kept

    await redis.start();
    const [delivery] = (await owner.client.GET('/v1/webhook-deliveries')).data!.deliveries;
    expect(delivery).toMatchObject({ status: 'pending', eventType: 'submission.created', attempts: [] });
    const queued = await eventually(
      async () => {
        const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']).catch(() => []);
        return jobs.find((j) => j.data.deliveryId === delivery.id);
      },
      15_000,
      200,
    );
    expect(queued?.name).toBe('deliver');
  }, 40_000);
});
