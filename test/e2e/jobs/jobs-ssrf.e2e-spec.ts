import dns, { type LookupAddress } from 'node:dns';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Job, JobAccepted } from '../../../generated/types';
import { countingServer, creditBalance, type CountingServer, waitForJob } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/**
 * The SSRF guard end to end (docs/decisions.md §7), through POST /v1/jobs and job webhooks. Canary
 * servers listen on loopback addresses that are NOT in ALLOW_PRIVATE_HOSTS (127.0.0.2 and [::1]);
 * every way of pointing the service at them must end in a refused fetch with zero connections.
 * Only 127.0.0.1 is allowed, and every server here binds loopback: nothing else is ever contacted.
 */

/**
 * Names resolved by a fake resolver installed while the app is created (the guard keeps the
 * lookup it was built with): the machine's own `localhost` answers 127.0.0.1 only, so these
 * names stand for a hostname whose DNS answer is, or includes, a forbidden address. Any other
 * name but `localhost` is ENOTFOUND, so the suite never queries a DNS server.
 */
const FAKE_DNS: Record<string, LookupAddress[]> = {
  'v4.canary.test': [{ address: '127.0.0.2', family: 4 }],
  'v6.canary.test': [{ address: '::1', family: 6 }],
  'mixed.canary.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '127.0.0.2', family: 4 },
  ],
  'mixed6.canary.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
};

function installFakeDns(): () => void {
  const real = dns.lookup;
  const fake = (hostname: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const name = hostname.toLowerCase().replace(/\.$/, '');
    // Only IP literals (Postgres, Redis) and `localhost` (/etc/hosts) go to the real resolver: no DNS server is asked.
    if (name === 'localhost' || isIP(name) !== 0) return (real as any)(hostname, options, callback);
    const answers = FAKE_DNS[name];
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => {
      if (!answers) cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
      else if (all) cb(null, answers);
      else cb(null, answers[0].address, answers[0].family);
    });
  };
  (dns as any).lookup = fake;
  return () => {
    (dns as any).lookup = real;
  };
}

describe('SSRF guard end to end', () => {
  let t: TestApp;
  let tenant: Tenant;
  let canary4: CountingServer;
  let canary6: CountingServer;
  /** On 127.0.0.1 at canary6's port: what `localhost` reaches if it resolves to 127.0.0.1 only. */
  let twin6: CountingServer;
  /** The allowed fixture server (127.0.0.1): an image, and redirects to wherever ?to= says. */
  let allowed: CountingServer;
  let png: Buffer;

  beforeAll(async () => {
    png = await makePng(40, 30);
    canary4 = await countingServer('127.0.0.2');
    // A port free on both 127.0.0.1 and ::1, so `localhost:<port>` means the same server pair.
    for (let i = 0; ; i++) {
      twin6 = await countingServer('127.0.0.1', (_req, res) => {
        res.statusCode = 404;
        res.end('not here');
      });
      try {
        canary6 = await countingServer('::1', undefined, twin6.port);
        break;
      } catch (err) {
        await twin6.close();
        if (i > 5) throw err;
      }
    }
    allowed = await countingServer('127.0.0.1', (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/image.png') {
        res.setHeader('content-type', 'image/png');
        res.end(png);
        return;
      }
      const to = url.searchParams.get('to');
      if (url.pathname.startsWith('/redirect') && to) {
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', to);
        res.end();
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    const restoreDns = installFakeDns();
    try {
      t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '1' });
    } finally {
      restoreDns();
    }
    tenant = await t.newTenant({ credits: 1000 }); // bench plan: polling many jobs is not rate limited
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([canary4, canary6, twin6, allowed].map((s) => s?.close()));
  });

  afterEach(() => {
    // The invariant of the whole suite: the canaries never see a connection.
    expect({ v4: canary4.connections, v6: canary6.connections, v4hits: canary4.hits, v6hits: canary6.hits }).toEqual({ v4: 0, v6: 0, v4hits: 0, v6hits: 0 });
  });

  const redirect = (to: string, status = 302) => `${allowed.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  /** Submits every URL, waits for all, and checks each failed as a refused fetch with a refund. */
  async function expectAllRefused(urls: string[], messageMatch: RegExp = /not a public address/): Promise<Job[]> {
    const before = await creditBalance(tenant.client);
    const ids: string[] = [];
    for (const url of urls) {
      const { response, data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url }, options: { width: 10 } } });
      expect(response.status).toBe(202);
      ids.push((data as JobAccepted).id);
    }
    const jobs = await Promise.all(ids.map((id) => waitForJob(tenant.client, id, 30_000)));
    jobs.forEach((job, i) => {
      expect({ url: urls[i], state: job.state, code: job.error?.code, result: job.result }).toEqual({ url: urls[i], state: 'failed', code: 'input_fetch_failed', result: null });
      expect(job.error!.message).toMatch(messageMatch);
      // The message names the host the user gave, never an address the server resolved it to.
      if (/canary\.test/i.test(urls[i])) expect(job.error!.message).not.toMatch(/127\.0\.0\.|::1/);
    });
    expect(await creditBalance(tenant.client)).toBe(before);
    return jobs;
  }

  it('(a) refuses input URLs that point straight at a canary, in every spelling', async () => {
    await expectAllRefused([
      `${canary4.origin}/image.png`,
      `${canary6.origin}/image.png`,
      `http://[0:0:0:0:0:0:0:1]:${canary6.port}/image.png`,
      `http://[::ffff:127.0.0.2]:${canary4.port}/image.png`, // IPv4-mapped IPv6
      `http://[::ffff:7f00:2]:${canary4.port}/image.png`,
    ]);
  });

  it('(b) refuses a redirect from the allowed host to a canary (302, 307, 308, and after a first allowed hop)', async () => {
    const before = allowed.hits;
    await expectAllRefused([
      redirect(`${canary4.origin}/image.png`),
      redirect(`${canary6.origin}/image.png`, 307),
      redirect(`http://2130706434:${canary4.port}/image.png`, 308),
      redirect(`http://v4.canary.test:${canary4.port}/image.png`, 301),
      redirect(redirect(`${canary6.origin}/image.png`), 303),
    ]);
    expect(allowed.hits - before).toBe(6); // the allowed hops were followed; the canary ones were not
  });

  it('refuses other schemes: 400 at submission, input_fetch_failed when a redirect leads there', async () => {
    for (const url of ['file:///etc/passwd', `ftp://127.0.0.2:${canary4.port}/x`, `gopher://127.0.0.2:${canary4.port}/_x`]) {
      const { response, error } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url }, options: { width: 10 } } });
      expect({ url, status: response.status, code: error?.error.code }).toEqual({ url, status: 400, code: 'validation_failed' });
    }
    await expectAllRefused([redirect('file:///etc/passwd'), redirect(`ftp://127.0.0.2:${canary4.port}/x`)], /only http and https/);
  });

  it('(c) refuses a hostname that resolves to a canary, and a mixed answer with one forbidden address', async () => {
    await expectAllRefused([
      `http://v4.canary.test:${canary4.port}/image.png`,
      `http://v6.canary.test:${canary6.port}/image.png`,
      `http://mixed.canary.test:${canary4.port}/image.png`,
      `http://mixed6.canary.test:${canary6.port}/image.png`,
      `http://MIXED.canary.test.:${canary4.port}/image.png`,
    ]);
  });

  it('(c) `localhost` never reaches the [::1] canary, whatever this machine resolves it to', async () => {
    const answer = await dns.promises.lookup('localhost', { all: true });
    const twinHits = twin6.hits;
    const [job] = await expectAllRefused([`http://localhost:${canary6.port}/image.png`], /./);
    if (answer.some((a) => a.address !== '127.0.0.1')) {
      // A mixed answer (127.0.0.1 and ::1) is refused as a whole.
      expect(job.error!.message).toMatch(/not a public address/);
      expect(twin6.hits).toBe(twinHits);
    } else {
      // Here localhost is 127.0.0.1 only (allowed): the request went to the 127.0.0.1 twin, which said 404.
      expect(job.error!.message).toMatch(/HTTP 404/);
      expect(twin6.hits).toBe(twinHits + 1);
    }
  });

  it('(d) refuses decimal, hex, octal and short spellings of 127.0.0.2', async () => {
    await expectAllRefused([
      `http://2130706434:${canary4.port}/image.png`,
      `http://0x7f000002:${canary4.port}/image.png`,
      `http://0177.0.0.2:${canary4.port}/image.png`,
      `http://127.2:${canary4.port}/image.png`,
    ]);
  });

  it('a host that does not resolve is retried, then fails as input_fetch_failed (not processing_failed)', async () => {
    // Transient fetch errors get BullMQ's attempts (backoff 5 s, 10 s); the last one keeps the fetch's code.
    await expectAllRefused([`http://nowhere.canary.test:${canary4.port}/image.png`], /could not be resolved/);
  }, 60_000);

  it('still fetches from the allowed host (the guard is not simply refusing everything)', async () => {
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: redirect(`${allowed.origin}/image.png`) }, options: { width: 20 } } });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job).toMatchObject({ state: 'completed', result: { width: 20, height: 15 } });
  });

  it('a job webhook pointing at a canary is never delivered: the attempts fail with an error', async () => {
    const pro = await t.newTenant({ plan: 'pro', credits: 100 });
    const hooks = [`${canary4.origin}/hook`, `${canary6.origin}/hook`, `http://v6.canary.test:${canary6.port}/hook`, `http://2130706434:${canary4.port}/hook`];
    for (const webhookUrl of hooks) {
      const { response, data } = await pro.client.POST('/v1/jobs', {
        body: { tool: 'image-resize', input: { url: `${allowed.origin}/image.png` }, options: { width: 8 }, webhookUrl },
      });
      expect(response.status).toBe(202);
      expect(await waitForJob(pro.client, (data as JobAccepted).id)).toMatchObject({ state: 'completed' });
    }
    // WEBHOOK_RETRY_DELAYS=1: one retry a second later, then the delivery is failed.
    const deadline = Date.now() + 30_000;
    let deliveries: NonNullable<Awaited<ReturnType<typeof listDeliveries>>>;
    async function listDeliveries() {
      return (await pro.client.GET('/v1/webhook-deliveries', { params: { query: { limit: 100 } } })).data?.deliveries;
    }
    for (;;) {
      deliveries = (await listDeliveries()) ?? [];
      if (deliveries.length === hooks.length && deliveries.every((d) => d.status === 'failed')) break;
      if (Date.now() > deadline) throw new Error(`deliveries not failed in time: ${JSON.stringify(deliveries)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(deliveries.map((d) => d.url).sort()).toEqual([...hooks].sort());
    for (const d of deliveries) {
      expect(d.eventType).toBe('job.completed');
      expect(d.attempts.length).toBe(1); // a refused address is not retried
      for (const attempt of d.attempts) {
        expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/not a public address/) });
      }
    }
  });
});
