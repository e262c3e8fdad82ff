import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { Repository } from 'typeorm';
import type { WebhookDelivery as WebhookDeliveryView } from '../../generated/types';
import { ApiError } from '../common/api-error';
import { decodeCursor, paginate } from '../common/cursor';
import { newId } from '../common/ids';
import { QUEUES } from '../queue/queue.module';
import { WebhookDelivery, type WebhookEventType } from './webhook-delivery.entity';

export interface DeliverJob {
  deliveryId: string;
}

/** How long the request that caused an event waits for the queue to take the delivery. */
const ENQUEUE_WAIT_MS = 2000;

/** Records webhook events and hands them to the delivery queue; reads the delivery log. */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectQueue(QUEUES.webhooks) private readonly queue: Queue<DeliverJob>,
  ) {}

  /** Never sends anything itself: the request that caused the event does not wait for the receiver. */
  async emit(accountId: string, url: string, type: WebhookEventType, data: object): Promise<WebhookDelivery> {
    const messageId = newId('whd').replace('whd_', 'msg_');
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    const delivery = this.deliveries.create({
      id: newId('whd'),
      accountId,
      eventType: type,
      url,
      messageId,
      body,
      status: 'pending',
      attempts: [],
      nextAttemptAt: new Date(),
    });
    await this.deliveries.insert(delivery);
    // With Redis down, queue.add() waited until Redis came back (BullMQ's connection retries for
    // ever), so an upload to a drop with a webhook hung although its file was stored. Wait a
    // bounded time only: the add stays in the connection's offline queue and is sent once Redis
    // is back; the delivery row stays `pending` meanwhile.
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.schedule(delivery.id, 0),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`queue did not answer in ${ENQUEUE_WAIT_MS} ms`)), ENQUEUE_WAIT_MS))),
      ]);
    } catch (err) {
      this.logger.warn(`Webhook delivery ${delivery.id} (${type}) not queued yet: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    return delivery;
  }

  schedule(deliveryId: string, delayMs: number): Promise<unknown> {
    return this.queue.add('deliver', { deliveryId }, { delay: delayMs, jobId: `${deliveryId}.${Date.now()}` });
  }

  async list(accountId: string, limit: number, cursor?: string, status?: WebhookDelivery['status']) {
    const after = decodeCursor(cursor);
    const qb = this.deliveries
      .createQueryBuilder('w')
      .where('w.account_id = :accountId', { accountId })
      .orderBy('w.created_at', 'DESC')
      .addOrderBy('w.id', 'DESC')
      .limit(limit + 1);
    if (after) qb.andWhere('(w.created_at, w.id) < (:createdAt, :id)', after);
    if (status) qb.andWhere('w.status = :status', { status });
    return paginate(await qb.getMany(), limit);
  }

  /** Sends the same event again (same webhook-id), whatever its state. */
  async replay(accountId: string, id: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findOneBy({ id, accountId });
    if (!delivery) throw ApiError.notFound('Webhook delivery');
    await this.deliveries.update({ id }, { status: 'pending', nextAttemptAt: new Date() });
    await this.schedule(id, 0);
    return this.deliveries.findOneByOrFail({ id });
  }

  toView(d: WebhookDelivery): WebhookDeliveryView {
    return {
      id: d.id,
      eventType: d.eventType,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    };
  }
}
