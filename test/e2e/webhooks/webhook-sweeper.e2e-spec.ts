import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { WebhookSweeper } from '../../../src/webhooks/webhook-sweeper';
import { TEST_DATABASE_URL } from '../../support/env';
import { startTestApp, type TestApp } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';

/** A delivery recorded while Redis was down has no queue entry: the sweeper queues it again. */
describe('webhook sweeper', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('delivers a pending delivery whose attempt is long overdue, once', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await t.newTenant({ plan: 'pro' });
      const id = `whd_sweep${Date.now()}`;
      const body = JSON.stringify({ type: 'submission.created', timestamp: new Date().toISOString(), data: { probe: true } });
      await db.query(
        `INSERT INTO webhook_deliveries (id, account_id, event_type, url, message_id, body, status, attempts, next_attempt_at)
         VALUES ($1, $2, 'submission.created', $3, $4, $5, 'pending', '[]', now() - interval '10 minutes')`,
        [id, tenant.account.id, receiver.url, `msg_${id}`, body],
      );
      expect(await t.app.get(WebhookSweeper, { strict: false }).sweep()).toBeGreaterThanOrEqual(1);
      const [hook] = await receiver.waitFor(1);
      expect(new Webhook(tenant.account.webhookSecret).verify(hook.body, hook.headers as Record<string, string>)).toMatchObject({ data: { probe: true } });
      for (let i = 0; i < 50; i++) {
        const { rows } = await db.query('SELECT status FROM webhook_deliveries WHERE id = $1', [id]);
        if (rows[0].status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const { rows } = await db.query('SELECT status, jsonb_array_length(attempts) AS n FROM webhook_deliveries WHERE id = $1', [id]);
      expect(rows[0]).toEqual({ status: 'succeeded', n: 1 });
      // Delivered: a later sweep leaves it alone.
      await t.app.get(WebhookSweeper, { strict: false }).sweep();
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
