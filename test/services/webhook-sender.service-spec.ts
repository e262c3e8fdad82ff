import type { Job } from 'bullmq';
import { newId } from '../../src/common/ids';
import { HttpFetchModule } from '../../src/http-fetch/http-fetch.module';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { WebhookSender } from '../../src/webhooks/webhook-sender';
import { type DeliverJob, WebhooksService } from '../../src/webhooks/webhooks.service';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { Clock } from '../../src/common/clock';
import { AppConfig } from '../../src/config/config';
import { GuardedHttpClient } from '../../src/http-fetch/guarded-fetch';
import { AccountSlots } from '../../src/webhooks/account-slots';
import { EndpointCircuits } from '../../src/webhooks/endpoint-circuits';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { SendShares } from '../../src/webhooks/send-shares';
import { startReceiver } from '../support/webhook-receiver';
import { newServiceTest, tenant, type ServiceTest, type TestClock } from './service-test';
import { webhookQueue } from './stand-ins';

/** The retry plan (docs/decisions.md §9) with the real delivery rows and a real receiver on 127.0.0.1. */
describe('WebhookSender retry plan', () => {
  let module: ServiceTest;
  let clock: TestClock;
  let sender: WebhookSender;
  let deliveries: WebhookDeliveriesRepository;
  // The attempts WebhooksService planned, with their delay from the Clock in whole seconds.
  const queue = webhookQueue();
  const scheduled = () => queue.scheduled.map((s) => ({ id: s.deliveryId, delayMs: Math.round(s.delayMs / 1000) * 1000 }));

  beforeAll(async () => {
    // The account slots and endpoint breakers are the real ones, on the test Redis under this file's prefix.
    // WebhookSender and SendShares are the worker's (WorkerModule), over WebhooksModule's exports. The
    // sender is built here rather than provided, so that BullMQ's explorer starts no consumer: the test calls process().
    module = await newServiceTest({
      modules: [WebhooksModule, HttpFetchModule],
      providers: [SendShares],
      standIns: [queue],
      env: { ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '5,300,1800' },
    });
    clock = module.clock;
    const deps = [WebhookDeliveriesRepository, AccountsRepository, GuardedHttpClient, WebhooksService, AppConfig, Clock, AccountSlots, SendShares, EndpointCircuits];
    sender = new WebhookSender(...(deps.map((token) => module.get(token)) as ConstructorParameters<typeof WebhookSender>));
    deliveries = module.get(WebhookDeliveriesRepository);
  });
  afterAll(() => module.close());

  async function delivery(url: string) {
    const { account } = await tenant(module);
    return (await deliveries.insert({
      id: newId('whd'),
      accountId: account.id,
      eventType: 'submission.created',
      url,
      messageId: newId('whd').replace('whd_', 'msg_'),
      body: '{}',
      nextAttemptAt: clock.now(),
    }))!;
  }
  const send = (id: string) => sender.process({ data: { deliveryId: id } } as Job<DeliverJob>);

  it('a failing receiver: retries on the schedule, from the Clock, then fails after the last one', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const d = await delivery(receiver.url);
      const expected = [5, 300, 1800];
      for (const [i, seconds] of expected.entries()) {
        clock.at = new Date(Date.UTC(2031, 0, 1, 0, i));
        await send(d.id);
        const row = (await deliveries.findById(d.id))!;
        expect(row).toMatchObject({ status: 'pending', nextAttemptAt: new Date(clock.at.getTime() + seconds * 1000) });
        expect(row.attempts).toHaveLength(i + 1);
        expect(
          scheduled()
            .filter((s) => s.id === d.id)
            .map((s) => s.delayMs),
        ).toEqual(expected.slice(0, i + 1).map((s) => s * 1000));
      }
      await send(d.id);
      expect(await deliveries.findById(d.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect((await deliveries.findById(d.id))!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500]);
      expect(scheduled().filter((s) => s.id === d.id)).toHaveLength(3);
    } finally {
      clock.at = undefined;
      await receiver.close();
    }
  });

  it('Retry-After longer than the plan wins; 410 stops at once; 2xx succeeds', async () => {
    const answers = [{ status: 503, headers: { 'retry-after': '600' } }, { status: 410 }, { status: 204 }];
    const receiver = await startReceiver((n) => answers[n - 1]);
    try {
      const slow = await delivery(receiver.url);
      await send(slow.id);
      expect(
        scheduled()
          .filter((s) => s.id === slow.id)
          .map((s) => s.delayMs),
      ).toEqual([600_000]);
      const gone = await delivery(receiver.url);
      await send(gone.id);
      expect(await deliveries.findById(gone.id)).toMatchObject({ status: 'failed' });
      const ok = await delivery(receiver.url);
      await send(ok.id);
      expect(await deliveries.findById(ok.id)).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
    } finally {
      await receiver.close();
    }
  });

  it('an address the SSRF guard refuses fails at once, without a retry', async () => {
    const d = await delivery('http://10.0.0.1/hook'); // refused before any connection is made
    await send(d.id);
    expect(await deliveries.findById(d.id)).toMatchObject({ status: 'failed' });
    expect(scheduled().filter((s) => s.id === d.id)).toEqual([]);
  });
});
