import { Client } from 'pg';
import { expectError } from '../../support/expect-error';
import { TEST_DATABASE_URL } from '../../support/env';
import { startPrivateRedis } from '../../support/private-redis';
import { startTestApp, type TestApp } from '../../support/test-app';

/** docs/decisions.md §7 `enqueue_failed`: Redis unavailable at submission. Uses a private Redis it can stop. */
describe('enqueue failure', () => {
  let t: TestApp;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let db: Client;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ WORKER_IN_PROCESS: 'false', REDIS_URL: redis.url });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close().catch(() => undefined);
    redis.stop();
  });

  const body = { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { width: 10 } } as const;

  it('500 enqueue_failed while Redis is down: credits back, no job row; recovers when Redis returns', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    expect((await tenant.client.POST('/v1/jobs', { body: body as any })).response.status).toBe(202);

    redis.stop();
    // The enqueue gives up on its own (JobQueue's timeout); a hang would be jest's test timeout.
    const { response, error } = await tenant.client.POST('/v1/jobs', { body: body as any });
    expectError(response, error, 500, 'enqueue_failed');
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(9);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [tenant.account.id]);
    expect(rows[0].n).toBe(1);
    const ledger = (await db.query('SELECT reason, delta FROM credit_ledger WHERE account_id = $1 ORDER BY id', [tenant.account.id])).rows;
    expect(ledger).toEqual([
      { reason: 'job_debit', delta: -1 },
      { reason: 'job_debit', delta: -1 },
      { reason: 'job_refund', delta: 1 },
    ]);

    await redis.start();
    let status = 0;
    for (let i = 0; i < 50 && status !== 202; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await tenant.client.POST('/v1/jobs', { body: body as any })).response.status;
    }
    expect(status).toBe(202);
  });

  it('twins with one Idempotency-Key while Redis is down: both get a clean 500 enqueue_failed, nothing charged', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    redis.stop();
    try {
      const answers = await Promise.all([0, 1, 2].map(() => tenant.client.POST('/v1/jobs', { body: body as any, headers: { 'Idempotency-Key': 'twin-during-outage' } })));
      // The winner is withdrawn after enqueue_failed; a losing twin must not replay its vanished job
      // (before the fix: a 202 naming a job that does not exist, or a TypeError 500).
      for (const { response, error } of answers) expectError(response, error, 500, 'enqueue_failed');
    } finally {
      await redis.start();
    }
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(10);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [tenant.account.id]);
    expect(rows[0].n).toBe(0);
  });

  it("a pipeline while Redis is down: 500 enqueue_failed, its whole cost back, neither its row nor its steps' left", async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const steps = {
      a: { tool: 'image-resize', options: { width: 10 } },
      b: { tool: 'image-convert', options: { format: 'webp' } },
      c: { tool: 'image-resize', input: 'a', options: { width: 5 } },
    };
    redis.stop();
    try {
      const { response, error } = await tenant.client.POST('/v1/jobs', { body: { input: { url: 'http://127.0.0.1:9/a.png' }, steps } as any });
      expectError(response, error, 500, 'enqueue_failed');
    } finally {
      await redis.start();
    }
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(10);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [tenant.account.id]);
    expect(rows[0].n).toBe(0);
  });
});
