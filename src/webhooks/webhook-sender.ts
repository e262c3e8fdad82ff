import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { AccountsRepository } from '../accounts/accounts.repository';
import { signingSecrets } from '../accounts/webhook-secrets';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { FetchError } from '../http-fetch/fetch-error';
import { GuardedHttpClient } from '../http-fetch/guarded-fetch';
import { webhookDeliveries } from '../metrics/dropline-metrics';
import { closeWorkerFirst } from '../queue/close-worker-first';
import { QUEUES, redisOutageLog } from '../queue/queue.module';
import { AccountSlots } from './account-slots';
import { type CircuitOutcome, EndpointCircuits } from './endpoint-circuits';
import { SendShares, WEBHOOK_SEND_SLOTS } from './send-shares';
import { retryDelayMs } from './retry-delay';
import type { WebhookAttemptRecord, WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliverJob, WebhooksService } from './webhooks.service';

/** How long a delivery whose account is at its cap or share waits before it asks for a slot again (± half, so they spread). */
const SLOT_WAIT_MS = 1000;

/**
 * Delivers one attempt in the Standard Webhooks format and plans the next (docs/decisions.md §9):
 * 2xx succeeds; 410 or an address the SSRF guard refuses stops; anything else (3xx included) retries on the configured schedule,
 * or after Retry-After when the receiver asks for longer.
 *
 * Fairness (docs/decisions.md §9): an attempt first takes its account's share of this worker's
 * slots (SendShares), then one of its account's slots across every worker (AccountSlots); without
 * either, its job goes back to BullMQ's delayed set instead of holding one of this worker's slots
 * while it waits. Then its endpoint's breaker (EndpointCircuits) may defer it: recorded as a failed
 * attempt `circuit_open`, retried on the schedule.
 */
@Processor(QUEUES.webhooks, { concurrency: WEBHOOK_SEND_SLOTS })
export class WebhookSender extends WorkerHost {
  private readonly logger = new Logger(WebhookSender.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly accounts: AccountsRepository,
    private readonly http: GuardedHttpClient,
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly slots: AccountSlots,
    private readonly shares: SendShares,
    private readonly circuits: EndpointCircuits,
  ) {
    super();
  }

  /** See MediaProcessor.onError: one line per Redis outage, not one stack per reconnect. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    redisOutageLog(this.config).failed(error, 'webhook worker');
  }

  /** Finish the deliveries in progress before the HTTP client closes (see closeWorkerFirst). */
  onModuleDestroy(): Promise<void> {
    return closeWorkerFirst(this);
  }

  async process(job: Job<DeliverJob>, token?: string): Promise<void> {
    // Entries queued before the account was in the job's data: one read to learn it.
    const known = job.data.accountId ? undefined : await this.deliveries.findById(job.data.deliveryId);
    const accountId = job.data.accountId ?? known?.accountId;
    if (!accountId) return;
    const share = this.shares.take(accountId);
    const lease = randomUUID();
    if (!share || !(await this.takeSlot(accountId, lease))) {
      share?.();
      if (token === undefined) throw new Error(`Webhook delivery ${job.data.deliveryId}: its account holds its share of the send slots`);
      // Not an attempt: the delivery waits its turn without holding a worker slot, and its plan is unchanged.
      await job.moveToDelayed(Date.now() + Math.round(SLOT_WAIT_MS * (0.5 + Math.random())), token);
      throw new DelayedError();
    }
    try {
      await this.attempt(job, known);
    } finally {
      share();
      await this.slots.release(accountId, lease).catch((err: Error) => this.logger.warn(`Webhook slot of ${accountId} not released (it expires): ${err.message}`));
    }
  }

  /** A slot of the account; when Redis cannot say, the attempt goes on without the cap rather than wait. */
  private async takeSlot(accountId: string, lease: string): Promise<boolean> {
    try {
      return await this.slots.acquire(accountId, lease);
    } catch (err) {
      this.logger.warn(`Webhook slot of ${accountId} not checked: ${(err as Error).message}`);
      return true;
    }
  }

  private async attempt(job: Job<DeliverJob>, known: WebhookDelivery | undefined): Promise<void> {
    const delivery = known ?? (await this.deliveries.findById(job.data.deliveryId));
    if (!delivery || delivery.status !== 'pending') return;
    // Superseded by a later plan (a replay, or a sweep): that attempt's chain is the one that goes on.
    if (job.data.plannedAt !== undefined && delivery.nextAttemptAt?.getTime() !== job.data.plannedAt) return;
    const account = await this.accounts.findById(delivery.accountId);
    if (!account) return; // deleted with its deliveries meanwhile

    const gate = await this.circuits.gate(delivery.accountId, delivery.url).catch((err: Error) => {
      this.logger.warn(`Webhook breaker of ${delivery.accountId} not checked: ${err.message}`);
      return { verdict: 'send' as const };
    });
    if (gate.verdict === 'open') {
      const now = this.clock.now();
      const until = new Date(gate.until);
      const deferred: WebhookAttemptRecord = {
        attemptedAt: now.toISOString(),
        statusCode: null,
        error: `circuit_open: the endpoint timed out ${gate.timeouts} times in a row; nothing is sent to it before ${until.toISOString()}`,
        durationMs: 0,
      };
      // The breaker's cool-down is honoured like a receiver's Retry-After (the same ceiling applies).
      return this.settle(delivery, deferred, String(Math.max(0, Math.ceil((gate.until - Date.now()) / 1000))), false);
    }

    const started = performance.now();
    const timestamp = this.clock.now();
    // Within 24 h of a rotation, signed with the new and the old secret (Standard Webhooks allows several).
    const signature = signingSecrets(account, timestamp)
      .map((secret) => new Webhook(secret).sign(delivery.messageId, timestamp, delivery.body))
      .join(' ');
    let attempt: WebhookAttemptRecord;
    let permanent = false;
    let retryAfter: string | undefined;
    let outcome: CircuitOutcome = 'answered';
    try {
      const res = await this.http.post(
        delivery.url,
        delivery.body,
        {
          'content-type': 'application/json',
          'user-agent': 'Dropline-Webhooks/1',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        { timeoutMs: this.config.WEBHOOK_TIMEOUT_S * 1000 },
      );
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: res.status, error: null, durationMs: Math.round(performance.now() - started) };
      retryAfter = res.headers['retry-after'];
    } catch (err) {
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: null, error: (err as Error).message, durationMs: Math.round(performance.now() - started) };
      // A URL the SSRF guard refuses will be refused on every retry: give up at once.
      permanent = err instanceof FetchError && (err.code === 'blocked_address' || err.code === 'invalid_url');
      outcome = err instanceof FetchError && err.code === 'timeout' ? 'timeout' : 'other';
    }
    await this.circuits
      .record(delivery.accountId, delivery.url, outcome, gate.verdict === 'probe')
      .catch((err: Error) => this.logger.warn(`Webhook breaker of ${delivery.accountId} not updated: ${err.message}`));
    return this.settle(delivery, attempt, retryAfter, permanent);
  }

  /** Records the attempt, then succeeds, fails or plans the next one. */
  private async settle(delivery: WebhookDelivery, attempt: WebhookAttemptRecord, retryAfter: string | undefined, permanent: boolean): Promise<void> {
    const count = (await this.deliveries.appendAttempt(delivery.id, attempt)) ?? delivery.attempts.length + 1;
    const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    const retriesUsed = count - 1;
    const schedule = this.config.WEBHOOK_RETRY_DELAYS;
    if (ok) {
      await this.deliveries.succeed(delivery.id);
      webhookDeliveries.inc({ outcome: 'succeeded' });
      return;
    }
    // Only a still-pending delivery is failed or retried: an overlapping send may have settled it.
    if (attempt.statusCode === 410 || permanent || retriesUsed >= schedule.length) {
      await this.deliveries.fail(delivery.id);
      webhookDeliveries.inc({ outcome: 'failed' });
      return;
    }
    const delayMs = retryDelayMs(schedule, retriesUsed, retryAfter, this.clock.now());
    const at = new Date(this.clock.now().getTime() + delayMs);
    if (!(await this.deliveries.planAttempt(delivery.id, at))) return;
    await this.webhooks.schedule(delivery.id, at, delivery.accountId);
    webhookDeliveries.inc({ outcome: 'retrying' });
    this.logger.debug(`Webhook ${delivery.id} attempt ${count} got ${attempt.statusCode ?? attempt.error}; retry in ${delayMs} ms`);
  }
}
