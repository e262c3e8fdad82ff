import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { WebhookDelivery as WebhookDeliveryView } from '../../generated/types';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { decodeCursor, paginate } from '../common/cursor';
import { newId } from '../common/ids';
import { QUEUES } from '../queue/queue.module';
import type { WebhookDelivery, WebhookEventType } from './webhook-delivery.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { EndpointCircuits } from './endpoint-circuits';

export interface DeliverJob {
  deliveryId: string;
  /**
   * The delivery's `next_attempt_at` (ms) this attempt was planned for. Each plan (retry, replay,
   * sweep) moves it, so a queued attempt that no longer matches was superseded and does nothing:
   * a replay while a retry is pending does not start a second chain. Absent on older entries.
   */
  plannedAt?: number;
  /** The delivery's account, so a worker takes its account's slot before reading anything. Absent on older entries. */
  accountId?: string;
}

/** How long the request that caused an event waits for the queue to take the delivery. */
const ENQUEUE_WAIT_MS = 2000;

/** Records webhook events and hands them to the delivery queue; reads the delivery log. */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    @InjectQueue(QUEUES.webhooks) private readonly queue: Queue<DeliverJob>,
    private readonly clock: Clock,
    private readonly circuits: EndpointCircuits,
  ) {}

  /**
   * Never sends anything itself: the request that caused the event does not wait for the receiver.
   * `eventKey` names the event once for all (`job.finished:<job id>`): emitting it again, as a
   * redelivered job consequence does, records and sends nothing; undefined then.
   */
  async emit(accountId: string, url: string, type: WebhookEventType, data: object, eventKey?: string): Promise<WebhookDelivery | undefined> {
    const messageId = newId('whd').replace('whd_', 'msg_');
    const now = this.clock.now();
    const body = JSON.stringify({ type, timestamp: now.toISOString(), data });
    const delivery = await this.deliveries.insert({ id: newId('whd'), accountId, eventType: type, url, messageId, body, nextAttemptAt: now }, eventKey ?? null);
    if (!delivery) {
      // Its first emit recorded it; if that one never reached the queue, the webhook sweeper sends the pending row.
      this.logger.log(`Webhook event ${eventKey} was recorded already: not sent again`);
      return undefined;
    }
    // With Redis down, queue.add() waited until Redis came back (BullMQ's connection retries for
    // ever), so an upload to a drop with a webhook hung although its file was stored. Wait a
    // bounded time only: the add stays in the connection's offline queue and is sent once Redis
    // is back; the delivery row stays `pending` meanwhile.
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.schedule(delivery.id, now, accountId),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`queue did not answer in ${ENQUEUE_WAIT_MS} ms`)), ENQUEUE_WAIT_MS))),
      ]);
    } catch (err) {
      this.logger.warn(`Webhook delivery ${delivery.id} (${type}) not queued yet: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    return delivery;
  }

  /** Queues the attempt planned for `at` (the delivery's `next_attempt_at`). */
  schedule(deliveryId: string, at: Date, accountId: string): Promise<unknown> {
    const delay = Math.max(0, at.getTime() - this.clock.now().getTime());
    return this.queue.add('deliver', { deliveryId, plannedAt: at.getTime(), accountId }, { delay, jobId: `${deliveryId}.${at.getTime()}` });
  }

  async list(accountId: string, limit: number, cursor?: string, status?: WebhookDelivery['status']) {
    return paginate(await this.deliveries.listForAccount(accountId, limit + 1, decodeCursor(cursor), status), limit);
  }

  /** Sends the same event again (same webhook-id), whatever its state. */
  async replay(accountId: string, id: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findForAccount(id, accountId);
    if (!delivery) throw DomainError.notFound('Webhook delivery');
    // Moving next_attempt_at supersedes a pending retry: only this attempt's chain goes on.
    const reopened = await this.deliveries.reopen(id, this.clock.now());
    await this.schedule(id, reopened!.nextAttemptAt!, accountId);
    return reopened!;
  }

  /** The deliveries as the API shows them, each with its endpoint's breaker as it is now. */
  async views(accountId: string, deliveries: WebhookDelivery[]): Promise<WebhookDeliveryView[]> {
    const circuits = await this.circuits.views(
      accountId,
      deliveries.map((d) => d.url),
    );
    return deliveries.map((d) => ({
      id: d.id,
      eventType: d.eventType,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
      circuit: circuits.get(d.url) ?? null,
    }));
  }
}
