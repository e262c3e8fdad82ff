import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Clock } from '../../../src/common/clock';
import { expectError } from '../../support/expect-error';
import { TEST_DATABASE_URL } from '../../support/env';
import { startTestApp, type TestApp } from '../../support/test-app';
import type { JobAccepted } from '../../../generated/types';

/** docs/decisions.md §7: idempotent job submission, per API key, 24 h. */
describe('idempotency', () => {
  let t: TestApp;
  let db: Client;
  const body = (key?: string) => ({ tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { width: 10 }, ...(key ? { idempotencyKey: key } : {}) });
  const jobsOf = async (accountId: string) => (await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [accountId])).rows[0].n;

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('a replay returns the original status and body, queues and charges nothing', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const key = randomUUID();
    const first = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    const second = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    expect(first.response.status).toBe(202);
    expect(second.response.status).toBe(202);
    expect(second.data).toEqual(first.data);
    expect(await jobsOf(tenant.account.id)).toBe(1);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(9);
  });

  it('the Idempotency-Key header works the same, also under /api/v1', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await tenant.client.POST('/v1/jobs', { body: body() as any, params: { header: headers } as any });
    const second = await tenant.client.POST('/api/v1/jobs', { body: body() as any, params: { header: headers } as any });
    expect(second.data).toEqual(first.data);
    expect(await jobsOf(tenant.account.id)).toBe(1);
  });

  it('409 idempotency_conflict for the same key with another body', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const key = randomUUID();
    await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    const { response, error } = await tenant.client.POST('/v1/jobs', { body: { ...body(key), options: { width: 11 } } as any });
    expectError(response, error, 409, 'idempotency_conflict');
  });

  it('keys are per API key: another key may reuse the value', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const key = randomUUID();
    const a = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    const other = await t.newKey(tenant.account.id);
    const b = await other.client.POST('/v1/jobs', { body: body(key) as any });
    expect((b.data as JobAccepted).id).not.toBe((a.data as JobAccepted).id);
  });

  it('20 concurrent identical requests create exactly one job and charge once', async () => {
    const tenant = await t.newTenant({ credits: 100 });
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => tenant.client.POST('/v1/jobs', { body: body(key) as any })));
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(202));
    expect(new Set(results.map((r) => (r.data as JobAccepted).id)).size).toBe(1);
    expect(await jobsOf(tenant.account.id)).toBe(1);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(99);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'job_debit'", [tenant.account.id]);
    expect(rows[0].n).toBe(1);
  });

  it('after 24 h the key is free again (controllable clock)', async () => {
    const tenant = await t.newTenant({ credits: 10 });
    const key = randomUUID();
    const first = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    const clock = t.app.get(Clock, { strict: false });
    const realNow = clock.now.bind(clock);
    try {
      clock.now = () => new Date(realNow().getTime() + 23.9 * 3600_000);
      expect(((await tenant.client.POST('/v1/jobs', { body: body(key) as any })).data as JobAccepted).id).toBe((first.data as JobAccepted).id);
      clock.now = () => new Date(realNow().getTime() + 24 * 3600_000 + 1000);
      const later = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
      expect(later.response.status).toBe(202);
      expect((later.data as JobAccepted).id).not.toBe((first.data as JobAccepted).id);
      expect(await jobsOf(tenant.account.id)).toBe(2);
    } finally {
      clock.now = realNow;
    }
  });

  it('a refused request is not remembered: the same key succeeds once credits arrive', async () => {
    const tenant = await t.newTenant({ credits: 0 });
    const key = randomUUID();
    const refused = await tenant.client.POST('/v1/jobs', { body: body(key) as any });
    expectError(refused.response, refused.error, 402, 'insufficient_credits');
    await db.query('UPDATE accounts SET credit_balance = 5 WHERE id = $1', [tenant.account.id]);
    expect((await tenant.client.POST('/v1/jobs', { body: body(key) as any })).response.status).toBe(202);
  });
});
