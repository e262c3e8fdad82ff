import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { AccountCredits } from '../../../src/account-api/account-credits.service';
import { TEST_DATABASE_URL } from '../../support/env';
import { expectError } from '../../support/expect-error';
import { eventually, form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, uniqueSlug, type TestApp } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';
import type { JobAccepted } from '../../../generated/types';

/** GET /v1/account, secret rotation with double signatures, the credit ledger (issue 12 item 2). */
describe('account API', () => {
  let t: TestApp;
  let db: Client;
  let dir: string;
  const input = { url: 'http://127.0.0.1:9/never-fetched.png' };

  beforeAll(async () => {
    dir = await tempStorageDir('account');
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', STORAGE_DIR: dir, ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '1' });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
    await removeDir(dir);
  });

  it('any key reads its account with the plan limits; the secret only with webhooks:read', async () => {
    const tenant = await t.newTenant({ plan: 'pro', credits: 7, key: { scopes: ['drops:read'] } });
    const plain = await tenant.client.GET('/v1/account');
    expect(plain.response.status).toBe(200);
    expect(plain.data!.account).toEqual({
      id: tenant.account.id,
      plan: 'pro',
      creditBalance: 7,
      limits: { requestsPerSecond: 20, inFlightJobs: 10, maxFileSizeMB: 500, jobWebhooks: true },
      createdAt: tenant.account.createdAt.toISOString(),
    });
    const reader = await t.newKey(tenant.account.id, { scopes: ['webhooks:read'] });
    expect((await reader.client.GET('/v1/account')).data!.account.webhookSecret).toBe(tenant.account.webhookSecret);
  });

  it('rotation needs webhooks:write and answers the new secret', async () => {
    const tenant = await t.newTenant({ key: { scopes: ['webhooks:read'] } });
    const refused = await tenant.client.POST('/v1/account/webhook-secret/rotate');
    expectError(refused.response, refused.error, 403, 'insufficient_scope');
    const writer = await t.newKey(tenant.account.id, { scopes: ['webhooks:write'] });
    const rotated = await writer.client.POST('/v1/account/webhook-secret/rotate');
    expect(rotated.response.status).toBe(200);
    expect(rotated.data!.account.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.data!.account.webhookSecret).not.toBe(tenant.account.webhookSecret);
    expect((await tenant.client.GET('/v1/account')).data!.account.webhookSecret).toBe(rotated.data!.account.webhookSecret);
  });

  it('for 24 h after a rotation each delivery is signed with the new and the old secret, then with the new only', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await t.newTenant();
      const oldSecret = owner.account.webhookSecret;
      const slug = uniqueSlug();
      await owner.client.POST('/v1/drops', { body: { name: 'Rotating', slug, webhookUrl: receiver.url } });
      const newSecret = (await owner.client.POST('/v1/account/webhook-secret/rotate')).data!.account.webhookSecret!;

      expect((await submit(t, slug, form({}, { data: await png(), name: 'a.png', type: 'image/png' }))).status).toBe(201);
      const [during] = await receiver.waitFor(1);
      const headers = during.headers as Record<string, string>;
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      // A receiver still on the old secret and one already on the new both accept it.
      expect((new Webhook(newSecret).verify(during.body, headers) as { type: string }).type).toBe('submission.created');
      expect((new Webhook(oldSecret).verify(during.body, headers) as { type: string }).type).toBe('submission.created');
      const stranger = (await t.newTenant()).account.webhookSecret;
      expect(() => new Webhook(stranger).verify(during.body, headers)).toThrow();

      // 25 hours later (moved in the database: the grace period is measured from the rotation time).
      await db.query("UPDATE accounts SET webhook_secret_rotated_at = now() - interval '25 hours' WHERE id = $1", [owner.account.id]);
      expect((await submit(t, slug, form({}, { data: await png(), name: 'b.png', type: 'image/png' }))).status).toBe(201);
      const after = (await receiver.waitFor(2))[1];
      const afterHeaders = after.headers as Record<string, string>;
      expect(afterHeaders['webhook-signature'].split(' ')).toHaveLength(1);
      expect(new Webhook(newSecret).verify(after.body, afterHeaders)).toMatchObject({ type: 'submission.created' });
      expect(() => new Webhook(oldSecret).verify(after.body, afterHeaders)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('the ledger: debits negative, refunds and grants positive, newest first, paged, per account', async () => {
    const tenant = await t.newTenant({ credits: 10, key: { scopes: ['audio:write'] } });
    const other = await t.newTenant({ credits: 10 });
    await t.app.get(AccountCredits).grant(tenant.account.id, 5);
    // Its input cannot be fetched: canceled while queued or failed by the worker, it is refunded either way.
    const { data: job } = await tenant.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input } });
    await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (job as JobAccepted).id } } });
    const final = await eventually(async () => {
      const { data } = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: (job as JobAccepted).id } } });
      return ['canceled', 'failed'].includes(data!.job.state);
    }, 60_000);
    expect(final).toBe(true);
    await other.client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 4 } } });

    const page = await tenant.client.GET('/v1/account/ledger');
    expect(page.response.status).toBe(200);
    const entries = page.data!.entries;
    expect(entries.map((e) => [e.reason, e.amount, e.jobId])).toEqual([
      ['job_refund', 2, (job as JobAccepted).id],
      ['job_debit', -2, (job as JobAccepted).id],
      ['grant', 5, null],
    ]);
    expect(page.data!.nextCursor).toBeNull();
    expect(entries.reduce((sum, e) => sum + e.amount, 10)).toBe((await tenant.client.GET('/v1/account')).data!.account.creditBalance);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await tenant.client.GET('/v1/account/ledger', { params: { query: { limit: 1, cursor } } });
      expect(data!.entries).toHaveLength(1);
      seen.push(data!.entries[0].id);
      cursor = data!.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(entries.map((e) => e.id));

    const bad = await tenant.client.GET('/v1/account/ledger', { params: { query: { cursor: 'not-a-cursor' } } });
    expectError(bad.response, bad.error, 400, 'validation_failed');
  });

  it('the ledger pages through entries of the same instant whose ids gain a digit, skipping none', async () => {
    const tenant = await t.newTenant({ credits: 0 });
    // Ordered by the id's text, '999…9' sorted after '1000…0': the page boundary after it skipped the other.
    const digits = 13 + Math.floor(Math.random() * 4);
    const ids = [10n ** BigInt(digits) - 1n, 10n ** BigInt(digits), 10n ** BigInt(digits) + 1n].map(String);
    await db.query('DELETE FROM credit_ledger WHERE id = ANY($1::bigint[])', [ids]);
    await db.query(
      `INSERT INTO credit_ledger (id, account_id, api_key_id, job_id, delta, reason, created_at)
       SELECT id, $2, NULL, NULL, 1, 'grant', '2026-11-20T10:00:00.000Z' FROM unnest($1::bigint[]) id`,
      [ids, tenant.account.id],
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await tenant.client.GET('/v1/account/ledger', { params: { query: { limit: 1, cursor } } });
      seen.push(...data!.entries.map((e) => e.id));
      cursor = data!.nextCursor ?? undefined;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual([...ids].reverse());
    await db.query('DELETE FROM credit_ledger WHERE id = ANY($1::bigint[])', [ids]);
  });
});
