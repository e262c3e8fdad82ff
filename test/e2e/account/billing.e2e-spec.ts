import { Client } from 'pg';
import { expectError } from '../../support/expect-error';
import { TEST_DATABASE_URL } from '../../support/env';
import { startTestApp, type TestApp } from '../../support/test-app';
import type { JobAccepted } from '../../../generated/types';

/**
 * Credits, spend caps and the in-flight limit (docs/decisions.md §3, §7). No worker runs here, so
 * accepted jobs stay queued and hold their slot.
 */
describe('credits, spend caps, concurrency', () => {
  let t: TestApp;
  let db: Client;
  const input = { url: 'http://127.0.0.1:9/never-fetched.png' };

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false' });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const ledger = async (accountId: string) =>
    (await db.query('SELECT reason, delta FROM credit_ledger WHERE account_id = $1 ORDER BY id', [accountId])).rows as { reason: string; delta: number }[];

  it('50 concurrent submissions against a balance for 20: exactly 20 accepted, balance 0, ledger sums match', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 20 });
    const results = await Promise.all(Array.from({ length: 50 }, () => tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 10 } } })));
    const accepted = results.filter((r) => r.response.status === 202);
    const refused = results.filter((r) => r.response.status === 402);
    expect(accepted).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) expectError(r.response, r.error, 402, 'insufficient_credits');
    expect(new Set(accepted.map((r) => (r.data as JobAccepted).id)).size).toBe(20);
    const account = (await tenant.client.GET('/v1/account')).data!.account;
    expect(account.creditBalance).toBe(0);
    const rows = await ledger(tenant.account.id);
    expect(rows.filter((r) => r.reason === 'job_debit')).toHaveLength(20);
    expect(rows.reduce((sum, r) => sum + r.delta, 0)).toBe(-20);
    const { rows: jobs } = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [tenant.account.id]);
    expect(jobs[0].n).toBe(20);
  });

  it('402 insufficient_credits names the cost and the balance', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 3 });
    const { response, error } = await tenant.client.POST('/v1/jobs', { body: { tool: 'video-convert', input } });
    expectError(response, error, 402, 'insufficient_credits');
    expect(error!.error.message).toBe('This job costs 5 credits; the balance is 3.');
  });

  it('cancel refunds: the ledger records the debit and the refund', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 10 });
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input } });
    const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (data as JobAccepted).id } } });
    expect(canceled.data!.job).toMatchObject({ state: 'canceled', finishedAt: expect.any(String) });
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(10);
    expect(await ledger(tenant.account.id)).toEqual([
      { reason: 'job_debit', delta: -2 },
      { reason: 'job_refund', delta: 2 },
    ]);
    const again = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (data as JobAccepted).id } } });
    expectError(again.response, again.error, 409, 'cannot_cancel');
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(10); // refunded once
  });

  it("402 spend_cap_reached past the key's daily cap; another key of the account is unaffected", async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100, key: { dailyCap: 6 } });
    const ok = await tenant.client.POST('/v1/jobs', { body: { tool: 'video-convert', input } });
    expect(ok.response.status).toBe(202);
    const capped = await tenant.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input } });
    expectError(capped.response, capped.error, 402, 'spend_cap_reached');
    expect(capped.error!.error.message).toMatch(/daily spend cap of 6 credits/);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(95); // the refused job cost nothing
    const fits = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expect(fits.response.status).toBe(202); // 5 + 1 = 6, exactly the cap
    const other = await t.newKey(tenant.account.id);
    expect((await other.client.POST('/v1/jobs', { body: { tool: 'video-convert', input } })).response.status).toBe(202);
  });

  it('the 202 carries Location: its statusUrl; a canceled job says refunded: true, a live one false', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100 });
    const accepted = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expect(accepted.response.status).toBe(202);
    expect(accepted.response.headers.get('location')).toBe((accepted.data as JobAccepted).statusUrl);
    expect(Object.keys(accepted.data!).sort()).toEqual(['id', 'state', 'statusUrl']);
    const id = (accepted.data as JobAccepted).id;
    expect((await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job).toMatchObject({ cost: 1, refunded: false });
    await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
    expect((await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job).toMatchObject({ state: 'canceled', cost: 1, refunded: true });
  });

  it('spend caps count debits only: a refunded (canceled) job does not reopen the cap', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100, key: { dailyCap: 1 } });
    const first = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expect(first.response.status).toBe(202);
    expect((await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (first.data as JobAccepted).id } } })).response.status).toBe(200);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(100); // refunded
    const again = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expectError(again.response, again.error, 402, 'spend_cap_reached');
  });

  it('402 spend_cap_reached for the monthly cap', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100, key: { monthlyCap: 1 } });
    expect((await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } })).response.status).toBe(202);
    const capped = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expectError(capped.response, capped.error, 402, 'spend_cap_reached');
    expect(capped.error!.error.message).toMatch(/monthly/);
  });

  it("429 concurrency_exceeded past the plan's in-flight jobs; the slot frees when a job ends", async () => {
    const tenant = await t.newTenant({ plan: 'free', credits: 100 });
    const first = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    const third = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } });
    expectError(third.response, third.error, 429, 'concurrency_exceeded');
    expect(third.error!.error.message).toContain('2');
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(98);
    await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (first.data as JobAccepted).id } } });
    await new Promise((r) => setTimeout(r, 1100)); // the free plan's 5 requests/s
    expect((await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 } } })).response.status).toBe(202);
  });

  it('403 plan_not_eligible for a job webhook on the free plan, before any charge', async () => {
    const tenant = await t.newTenant({ plan: 'free', credits: 10 });
    const { response, error } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 1 }, webhookUrl: 'https://example.com/hook' } });
    expectError(response, error, 403, 'plan_not_eligible');
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(10);
  });
});
