import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhooksService } from './webhooks.service';

const SWEEP_EVERY_MS = 60_000;
/** A pending delivery this late for its attempt lost its queue entry (Redis down when it was added). */
const OVERDUE_MS = 5 * 60_000;

/**
 * Postgres holds every delivery; the queue only times the attempts. A delivery whose attempt is
 * long overdue is queued again, so no event stays `pending` forever. Receivers dedupe by webhook-id.
 */
@Injectable()
export class WebhookSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookSweeper.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly webhooks: WebhooksService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep().catch((err) => this.logger.warn(`Sweep failed: ${err.message}`)), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(now = Date.now()): Promise<number> {
    const overdue = await this.deliveries.find({
      where: { status: 'pending', nextAttemptAt: LessThan(new Date(now - OVERDUE_MS)) },
      take: 200,
    });
    for (const delivery of overdue) {
      await this.deliveries.update({ id: delivery.id, status: 'pending' }, { nextAttemptAt: new Date(now) });
      await this.webhooks.schedule(delivery.id, 0);
    }
    if (overdue.length > 0) this.logger.log(`Queued ${overdue.length} overdue webhook deliveries again`);
    return overdue.length;
  }
}
