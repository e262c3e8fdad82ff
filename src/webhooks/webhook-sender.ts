import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
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
import { retryDelayMs } from './retry-delay';
import type { WebhookAttemptRecord } from './webhook-delivery.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { type DeliverJob, WebhooksService } from './webhooks.service';

const TIMEOUT_MS = 10_000;

/**
 * Delivers one attempt in the Standard Webhooks format and plans the next (docs/decisions.md §9):
 * 2xx succeeds; 410 or an address the SSRF guard refuses stops; anything else (3xx included) retries on the configured schedule,
 * or after Retry-After when the receiver asks for longer.
 */
@Processor(QUEUES.webhooks, { concurrency: 20 })
export class WebhookSender extends WorkerHost {
  private readonly logger = new Logger(WebhookSender.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly accounts: AccountsRepository,
    private readonly http: GuardedHttpClient,
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
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

  async process(job: Job<DeliverJob>): Promise<void> {
    const delivery = await this.deliveries.findById(job.data.deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    // Superseded by a later plan (a replay, or a sweep): that attempt's chain is the one that goes on.
    if (job.data.plannedAt !== undefined && delivery.nextAttemptAt?.getTime() !== job.data.plannedAt) return;
    const account = await this.accounts.findById(delivery.accountId);
    if (!account) return; // deleted with its deliveries meanwhile

    const started = performance.now();
    const timestamp = this.clock.now();
    // Within 24 h of a rotation, signed with the new and the old secret (Standard Webhooks allows several).
    const signature = signingSecrets(account, timestamp)
      .map((secret) => new Webhook(secret).sign(delivery.messageId, timestamp, delivery.body))
      .join(' ');
    let attempt: WebhookAttemptRecord;
    let permanent = false;
    let retryAfter: string | undefined;
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
        { timeoutMs: TIMEOUT_MS },
      );
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: res.status, error: null, durationMs: Math.round(performance.now() - started) };
      retryAfter = res.headers['retry-after'];
    } catch (err) {
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: null, error: (err as Error).message, durationMs: Math.round(performance.now() - started) };
      // A URL the SSRF guard refuses will be refused on every retry: give up at once.
      permanent = err instanceof FetchError && (err.code === 'blocked_address' || err.code === 'invalid_url');
    }

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
    await this.webhooks.schedule(delivery.id, at);
    webhookDeliveries.inc({ outcome: 'retrying' });
    this.logger.debug(`Webhook ${delivery.id} attempt ${count} got ${attempt.statusCode ?? attempt.error}; retry in ${delayMs} ms`);
  }
}
