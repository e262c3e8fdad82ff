import { WebhooksService } from '../../../src/webhooks/webhooks.service';
import { startTestApp, type TestApp } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';

const THRESHOLD = 3;
const RETRIES = 10;

/**
 * Issue 26 item 2: an endpoint that keeps timing out is backed off by a circuit breaker, shown in
 * the delivery log, and closed again once the receiver answers — without losing a delivery or
 * retrying outside the schedule. Short settings (README "Webhook fairness and circuit breakers"):
 * a 1 s timeout, 3 timeouts open the breaker for 3 s, retries 1 s apart.
 */
describe('webhook circuit breaker', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      WORKER_IN_PROCESS: 'true',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT_S: '1',
      WEBHOOK_BREAKER_THRESHOLD: String(THRESHOLD),
      WEBHOOK_BREAKER_COOLDOWN_S: '3',
      WEBHOOK_RETRY_DELAYS: Array(RETRIES).fill('1').join(','),
    });
  });
  afterAll(() => t.close());

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('opens after N timeouts, shows in GET /v1/webhook-deliveries, defers on the schedule, and closes when the receiver answers again', async () => {
    let recover!: () => void;
    const recovered = new Promise<void>((resolve) => (recover = resolve));
    // Hangs (past the 1 s timeout) until the test lets it recover; then answers 204 at once.
    const receiver = await startReceiver(() => ({ status: 204, until: recovered }));
    try {
      const owner = await t.newTenant({ plan: 'pro' });
      const webhooks = t.app.get(WebhooksService);
      const ids = await Promise.all([0, 1, 2].map(async (i) => (await webhooks.emit(owner.account.id, receiver.url, 'submission.created', { n: i }))!.id));
      const list = async () => (await owner.client.GET('/v1/webhook-deliveries', { params: { query: { limit: 100 } } })).data!.deliveries.filter((d) => ids.includes(d.id));

      // Three timeouts in a row: the breaker opens, and every delivery of the endpoint shows it.
      const opened = await until('the breaker to open', async () => {
        const deliveries = await list();
        return deliveries.every((d) => d.circuit?.state === 'open') && deliveries;
      });
      expect(opened[0].circuit).toMatchObject({ state: 'open', consecutiveTimeouts: THRESHOLD });
      expect(Date.parse(opened[0].circuit!.openUntil!)).toBeGreaterThan(Date.now());
      expect(receiver.received).toHaveLength(THRESHOLD);

      // A retry due while it is open sends nothing: it is recorded as a `circuit_open` attempt.
      const deferred = await until('an attempt deferred by the breaker', async () => {
        const deliveries = await list();
        return deliveries.find((d) => d.attempts.some((a) => a.error?.startsWith('circuit_open'))) ?? false;
      });
      expect(deferred.status).toBe('pending');
      expect(deferred.attempts.find((a) => a.error?.startsWith('circuit_open'))).toMatchObject({ statusCode: null, durationMs: 0 });
      expect(receiver.received).toHaveLength(THRESHOLD);

      // The receiver recovers: after the cool-down one probe goes through, gets its answer, and the breaker closes.
      recover();
      const done = await until('every delivery to succeed', async () => {
        const deliveries = await list();
        return deliveries.every((d) => d.status === 'succeeded') && deliveries;
      });
      for (const d of done) {
        expect(d.circuit).toEqual({ state: 'closed', consecutiveTimeouts: 0, openUntil: null });
        // Within the retry policy: at most the first attempt and the schedule's retries, none lost.
        expect(d.attempts.length).toBeLessThanOrEqual(RETRIES + 1);
        expect(d.attempts.at(-1)).toMatchObject({ statusCode: 204, error: null });
      }
    } finally {
      recover();
      await receiver.close();
    }
  }, 90_000);
});
