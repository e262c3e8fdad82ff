import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QUEUES } from '../../../src/queue/queue.module';
import { WebhooksService } from '../../../src/webhooks/webhooks.service';
import { startTestApp, type TestApp } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';

/**
 * Issue 10 item 8: a replay while a retry is pending must not start a second chain of attempts.
 * Retries are an hour apart, so "later" is reached by promoting the queue's delayed entries, not
 * by waiting: after it, exactly one attempt is sent (the replay's own retry), not two.
 */
describe('webhook replay while a retry is pending', () => {
  let t: TestApp;
  let queue: Queue;
  const receiver = startReceiver(() => ({ status: 500 }));

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '3600,3600,3600' });
    queue = t.app.get<Queue>(getQueueToken(QUEUES.webhooks));
  });
  afterAll(async () => {
    await (await receiver).close();
    await t.close();
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function idle(): Promise<boolean> {
    const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
    return counts.waiting + counts.active + counts.prioritized === 0;
  }

  it('a replay supersedes the pending retry: one chain goes on', async () => {
    const r = await receiver;
    const owner = await t.newTenant({ plan: 'pro' });
    const delivery = (await t.app.get(WebhooksService).emit(owner.account.id, r.url, 'submission.created', { probe: true }))!;
    const view = async () => (await owner.client.GET('/v1/webhook-deliveries')).data!.deliveries.find((d) => d.id === delivery.id)!;
    // The first attempt fails: a retry is planned an hour later.
    await until('the first retry to be planned', async () => (await view()).attempts.length === 1 && (await idle()));

    const replay = await owner.client.POST('/v1/webhook-deliveries/{id}/replay', { params: { path: { id: delivery.id } } });
    expect(replay.response.status).toBe(202);
    await until('the replay to be sent and its retry planned', async () => (await view()).attempts.length === 2 && (await idle()));
    expect(r.received).toHaveLength(2);

    // An hour later: every delayed attempt comes due.
    await queue.promoteJobs();
    await until('the due attempts to run', async () => r.received.length >= 3 && (await idle()));
    const after = await view();
    // Before the fix both the original retry and the replay's retry were sent: 4 attempts, `failed`.
    expect(r.received).toHaveLength(3);
    expect(after.attempts).toHaveLength(3);
    expect(after.status).toBe('pending');
  }, 60_000);
});
