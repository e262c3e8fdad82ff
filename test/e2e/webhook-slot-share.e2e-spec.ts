import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobAccepted } from '../../generated/types';
import { form, png, submit } from '../support/intake';
import { type JobsApp, startJobsApp, waitForJob } from '../support/jobs';
import { type Tenant, uniqueSlug } from '../support/test-app';
import { startReceiver } from '../support/webhook-receiver';

const HANGING_ACCOUNTS = 4;
const RECEIVERS_EACH = 8;
/** The bound: the fifth account's webhook within 3 s of its job ending (unloaded it takes ~30 ms; generous for a busy CI machine). */
const BOUND_MS = 3000;

/**
 * docs/decisions.md §9, "Each account's share of a worker's slots": four accounts whose webhooks
 * each point at 8 receivers on distinct loopback ports that take the request and never answer
 * (one breaker per port, so no breaker opens) must not hold every one of a worker's 20 send
 * slots. Two are free accounts with drop webhooks, two pro accounts with job webhooks; a fifth
 * account's job webhook still arrives within 3 s of its job ending. Before, 4 × 5 held sends filled
 * all 20 slots and it waited for a timeout to free one.
 */
describe('webhook send slots shared between accounts', () => {
  let app: JobsApp;
  const hanging: { server: Server; open: number }[] = [];

  beforeAll(async () => {
    // A hanging send holds its slot for 30 s, longer than the test needs to measure beside it; a
    // timed-out attempt is retried an hour later.
    app = await startJobsApp('whshare', { WEBHOOK_TIMEOUT_S: '30', WEBHOOK_RETRY_DELAYS: '3600', PUBLIC_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    for (const h of hanging) h.server.closeAllConnections();
    await Promise.all(hanging.map((h) => new Promise((resolve) => h.server.close(resolve))));
    await app?.close();
  });

  /** A receiver that takes the request and never answers; counts the requests it holds open. */
  async function hangingReceiver(): Promise<{ url: string; openNow: () => number }> {
    const h = { server: createServer(), open: 0 };
    h.server.on('request', (req, res) => {
      h.open++;
      // The response's close, not the request's: that one fires once the body is read.
      res.on('close', () => h.open--);
      req.resume();
    });
    await new Promise<void>((resolve) => h.server.listen(0, '127.0.0.1', resolve));
    hanging.push(h);
    return { url: `http://127.0.0.1:${(h.server.address() as AddressInfo).port}/hook`, openNow: () => h.open };
  }

  /** A free account: 8 drops, each with its webhook at its own hanging port, and one upload to each. */
  async function dropFlood(owner: Tenant, urls: string[], image: Buffer): Promise<void> {
    for (const url of urls) {
      const slug = uniqueSlug('hang');
      const created = await owner.client.POST('/v1/drops', { body: { name: 'Hanging', slug, webhookUrl: url } });
      expect(created.response.status).toBe(201);
      const res = await submit(app.t, slug, form({ senderName: 'Mallory', senderEmail: 'mallory@example.com' }, { data: image, name: 'a.png', type: 'image/png' }));
      expect(res.status).toBe(201);
    }
  }

  /** A pro account: 8 jobs, each with its webhook at its own hanging port. */
  async function jobFlood(owner: Tenant, urls: string[]): Promise<void> {
    for (const url of urls) {
      const { response } = await owner.client.POST('/v1/jobs', {
        body: { tool: 'image-resize', input: { url: app.files.url('icon.png') }, options: { width: 8 }, webhookUrl: url },
      });
      expect(response.status).toBe(202);
    }
  }

  it("sends a fifth account's job webhook within 3 s of its job ending while 4 accounts × 8 receivers hang", async () => {
    const image = await png();
    const floods = await Promise.all(
      Array.from({ length: HANGING_ACCOUNTS }, async (_, i) => {
        const plan = i % 2 === 0 ? 'free' : 'pro';
        const tenant = await app.t.newTenant({ plan, credits: 50 });
        const receivers = await Promise.all(Array.from({ length: RECEIVERS_EACH }, () => hangingReceiver()));
        const urls = receivers.map((r) => r.url);
        await (plan === 'free' ? dropFlood(tenant, urls, image) : jobFlood(tenant, urls));
        return { openNow: () => receivers.reduce((n, r) => n + r.openNow(), 0) };
      }),
    );

    // Every hanging account sends, and together they hold at least 16 of the 20 slots (4 accounts may leave one share of 20 / 5 free).
    const pressed = () => floods.every((f) => f.openNow() >= 1) && floods.reduce((n, f) => n + f.openNow(), 0) >= 16;
    for (const deadline = Date.now() + 60_000; !pressed();) {
      if (Date.now() > deadline) throw new Error(`hanging receivers hold ${floods.map((f) => f.openNow()).join(', ')} requests`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const fifth = await app.t.newTenant({ plan: 'pro', credits: 10 });
    const receiver = await startReceiver();
    const latencies: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const { data } = await fifth.client.POST('/v1/jobs', {
          body: { tool: 'image-resize', input: { url: app.files.url('icon.png') }, options: { width: 16 }, webhookUrl: receiver.url },
        });
        const job = await waitForJob(fifth.client, (data as JobAccepted).id);
        expect(job.state).toBe('completed');
        // Long enough to see how late the old code was (the 30 s timeouts, then the queue behind them).
        const [hook] = (await receiver.waitFor(i + 1, 60_000)).slice(i);
        expect(JSON.parse(hook.body)).toMatchObject({ type: 'job.completed', data: { job: { id: job.id } } });
        latencies.push(hook.receivedAt - Date.parse(job.finishedAt!));
      }
      const held = floods.map((f) => f.openNow());
      console.log(`webhook slot share: fifth account's webhook ${latencies.join(', ')} ms after its job ended; hanging sends held per account ${held.join(', ')}`);
      for (const ms of latencies) expect(ms).toBeLessThan(BOUND_MS);
      // The hanging accounts still held their sends: the fifth account was served beside them, not after them.
      expect(pressed()).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
