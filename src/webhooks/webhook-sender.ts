import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import type { Repository } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { AppConfig } from '../config/config';
import { FetchError } from '../http-fetch/fetch-error';
import { GuardedHttpClient } from '../http-fetch/guarded-fetch';
import { closeWorkerFirst } from '../queue/close-worker-first';
import { QUEUES } from '../queue/queue.module';
import { WebhookDelivery, type WebhookAttemptRecord } from './webhook-delivery.entity';
import { type DeliverJob, WebhooksService } from './webhooks.service';

const TIMEOUT_MS = 10_000;

/**
 * Delivers one attempt in the Standard Webhooks format and plans the next (PRODUCT.md §9):
 * 2xx succeeds; 410 or an address the SSRF guard refuses stops; anything else (3xx included) retries on the configured schedule,
 * or after Retry-After when the receiver asks for longer.
 */
@Processor(QUEUES.webhooks, { concurrency: 20 })
export class WebhookSender extends WorkerHost {
  private readonly logger = new Logger(WebhookSender.name);

  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly http: GuardedHttpClient,
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  /** Finish the deliveries in progress before the HTTP client closes (see closeWorkerFirst). */
  onModuleDestroy(): Promise<void> {
    return closeWorkerFirst(this);
  }

  async process(job: Job<DeliverJob>): Promise<void> {
    const delivery = await this.deliveries.findOneBy({ id: job.data.deliveryId });
    if (!delivery || delivery.status !== 'pending') return;
    const account = await this.accounts.findOneByOrFail({ id: delivery.accountId });

    const started = Date.now();
    const timestamp = new Date();
    const signature = new Webhook(account.webhookSecret).sign(delivery.messageId, timestamp, delivery.body);
    let attempt: WebhookAttemptRecord;
    let permanent = false;
    let retryAfterMs: number | undefined;
    try {
      const res = await this.http.post(delivery.url, delivery.body, {
        'content-type': 'application/json',
        'user-agent': 'Dropline-Webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      }, { timeoutMs: TIMEOUT_MS });
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: res.status, error: null, durationMs: Date.now() - started };
      retryAfterMs = parseRetryAfter(res.headers['retry-after']);
    } catch (err) {
      attempt = { attemptedAt: timestamp.toISOString(), statusCode: null, error: (err as Error).message, durationMs: Date.now() - started };
      // A URL the SSRF guard refuses will be refused on every retry: give up at once.
      permanent = err instanceof FetchError && (err.code === 'blocked_address' || err.code === 'invalid_url');
    }

    // Appended in one statement. Writing back `[...delivery.attempts, attempt]` lost records when
    // two sends of one delivery overlapped (replays while a retry is pending: each read the same
    // list and the last write won), although every attempt must be readable in the log.
    const [appended]: [{ count: number }[], number] = await this.deliveries.query(
      'UPDATE webhook_deliveries SET attempts = attempts || $2::jsonb WHERE id = $1 RETURNING jsonb_array_length(attempts) AS count',
      [delivery.id, JSON.stringify([attempt])],
    );
    const count = appended[0]?.count ?? delivery.attempts.length + 1;
    const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    const retriesUsed = count - 1;
    const schedule = this.config.WEBHOOK_RETRY_DELAYS;
    if (ok) {
      await this.deliveries.update({ id: delivery.id }, { status: 'succeeded', nextAttemptAt: null });
      return;
    }
    // Only a still-pending delivery is failed or retried: an overlapping send may have settled it.
    if (attempt.statusCode === 410 || permanent || retriesUsed >= schedule.length) {
      await this.deliveries.update({ id: delivery.id, status: 'pending' }, { status: 'failed', nextAttemptAt: null });
      return;
    }
    const delayMs = Math.max(schedule[retriesUsed] * 1000, retryAfterMs ?? 0);
    const planned = await this.deliveries.update({ id: delivery.id, status: 'pending' }, { nextAttemptAt: new Date(Date.now() + delayMs) });
    if (!planned.affected) return;
    await this.webhooks.schedule(delivery.id, delayMs);
    this.logger.debug(`Webhook ${delivery.id} attempt ${count} got ${attempt.statusCode ?? attempt.error}; retry in ${delayMs} ms`);
  }
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
