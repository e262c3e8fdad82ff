import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ExclusiveSweeps } from '../sweeps/exclusive-sweeps';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
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
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksService,
    private readonly clock: Clock,
    private readonly sweeps: ExclusiveSweeps,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep().catch((err) => this.logger.warn(`Sweep failed: ${err.message}`)), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One sweep in one worker of the deployment at a time (a Postgres advisory lock); 0 when another worker holds it. */
  async sweep(): Promise<number> {
    return (await this.sweeps.run('webhook-sweeper', () => this.requeueOverdue())) ?? 0;
  }

  private async requeueOverdue(): Promise<number> {
    const now = this.clock.now();
    const overdue = await this.deliveries.findOverdue(new Date(now.getTime() - OVERDUE_MS), 200);
    for (const delivery of overdue) {
      if (await this.deliveries.planAttempt(delivery.id, now)) await this.webhooks.schedule(delivery.id, now, delivery.accountId);
    }
    if (overdue.length > 0) this.logger.log(`Queued ${overdue.length} overdue webhook deliveries again`);
    return overdue.length;
  }
}
