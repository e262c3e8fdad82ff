import { Webhook } from 'standardwebhooks';
import { type JobsApp, startJobsApp } from '../../support/jobs';
import { type TestApp } from '../../support/test-app';
import { webhookContractErrors } from '../../support/webhook-contract';
import { startReceiver } from '../../support/webhook-receiver';
import { contractFetch } from '../../support/contract-check';
import type { JobAccepted } from '../../../generated/types';

/** docs/decisions.md §9: job.completed / job.failed, Standard Webhooks, pro/max only. */
describe('job webhooks', () => {
  let app: JobsApp;
  let t: TestApp;
  let files: JobsApp['files'];

  beforeAll(async () => {
    app = await startJobsApp('jwh');
    ({ t, files } = app);
  });
  afterAll(() => app?.close());

  it('job.completed carries the result with a download URL; job.failed the error; both verify', async () => {
    const receiver = await startReceiver();
    try {
      const tenant = await t.newTenant({ plan: 'pro', credits: 10 });
      const ok = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 16 }, webhookUrl: receiver.url } });
      const bad = await tenant.client.POST('/v1/jobs', {
        body: { tool: 'image-resize', input: { url: files.url('notes.txt') }, options: { width: 16 }, webhookUrl: receiver.url },
      });
      const hooks = await receiver.waitFor(2);
      const verifier = new Webhook(tenant.account.webhookSecret);
      const events = hooks.map((h) => verifier.verify(h.body, h.headers as Record<string, string>) as { type: string; timestamp: string; data: any });
      // What is sent is what the contract's x-webhooks promise.
      for (const h of hooks) expect(webhookContractErrors(h)).toEqual([]);
      const completed = events.find((e) => e.type === 'job.completed')!;
      const failed = events.find((e) => e.type === 'job.failed')!;
      expect(completed.data.job).toMatchObject({
        id: (ok.data as JobAccepted).id,
        state: 'completed',
        result: { status: 'converted', width: 16, downloadUrl: expect.any(String) },
      });
      expect((await contractFetch(completed.data.job.result.downloadUrl)).status).toBe(200);
      expect(failed.data.job).toMatchObject({ id: (bad.data as JobAccepted).id, state: 'failed', error: { code: 'unsupported_input' } });
      expect(() => verifier.verify(hooks[0].body.replace('job', 'jab'), hooks[0].headers as Record<string, string>)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver and records every attempt in the delivery log', async () => {
    const receiver = await startReceiver((n) => ({ status: n < 3 ? 500 : 200 }));
    try {
      const tenant = await t.newTenant({ plan: 'max', credits: 10 });
      await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 8 }, webhookUrl: receiver.url } });
      const hooks = await receiver.waitFor(3);
      expect(new Set(hooks.map((h) => h.headers['webhook-id'])).size).toBe(1);
      let delivery;
      for (let i = 0; i < 50; i++) {
        delivery = (await tenant.client.GET('/v1/webhook-deliveries')).data!.deliveries[0];
        if (delivery.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(delivery).toMatchObject({ eventType: 'job.completed', status: 'succeeded', nextAttemptAt: null });
      expect(delivery?.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    } finally {
      await receiver.close();
    }
  });
});
