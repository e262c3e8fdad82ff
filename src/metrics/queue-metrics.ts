import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Gauge, register } from 'prom-client';
import { QUEUES } from '../queue/queue.module';

const DEPTH = 'dropline_queue_depth';
const ACTIVE = 'dropline_queue_active_jobs';
/** A scrape during a Redis outage still answers (without the queue gauges) instead of hanging. */
const COUNT_TIMEOUT_MS = 2000;

type QueueCounts = { name: string; counts: Record<string, number> };

async function countAll(queues: Queue[]): Promise<QueueCounts[]> {
  let timer: NodeJS.Timeout | undefined;
  const all = Promise.all(queues.map(async (q) => ({ name: q.name, counts: await q.getJobCounts('waiting', 'delayed', 'prioritized', 'active') })));
  try {
    return await Promise.race([all, new Promise<QueueCounts[]>((done) => (timer = setTimeout(() => done([]), COUNT_TIMEOUT_MS)))]);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Queue depth (waiting + delayed + prioritized) and active jobs per queue, read from BullMQ's
 * getJobCounts when /metrics is scraped: Redis holds the truth for every process, so any API
 * process reports the same numbers.
 */
@Injectable()
export class QueueMetrics implements OnModuleDestroy {
  constructor(
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
    @InjectQueue(QUEUES.image) image: Queue,
    @InjectQueue(QUEUES.video) video: Queue,
    @InjectQueue(QUEUES.audio) audio: Queue,
    @InjectQueue(QUEUES.document) document: Queue,
  ) {
    const queues = [webhooks, image, video, audio, document];
    // One gauge pair per app: a second app in the same process (tests) replaces the first's.
    register.removeSingleMetric(DEPTH);
    register.removeSingleMetric(ACTIVE);
    let counts: Promise<QueueCounts[]> | undefined;
    // Both gauges are collected on the same scrape: one round of getJobCounts serves them.
    const read = () => (counts ??= countAll(queues).finally(() => setImmediate(() => (counts = undefined))));
    new Gauge({
      name: DEPTH,
      help: 'Jobs waiting in each queue (waiting + delayed + prioritized)',
      labelNames: ['queue'] as const,
      async collect() {
        this.reset();
        for (const q of await read()) this.set({ queue: q.name }, (q.counts.waiting ?? 0) + (q.counts.delayed ?? 0) + (q.counts.prioritized ?? 0));
      },
    });
    new Gauge({
      name: ACTIVE,
      help: 'Jobs being processed from each queue',
      labelNames: ['queue'] as const,
      async collect() {
        this.reset();
        for (const q of await read()) this.set({ queue: q.name }, q.counts.active ?? 0);
      },
    });
  }

  onModuleDestroy(): void {
    register.removeSingleMetric(DEPTH);
    register.removeSingleMetric(ACTIVE);
  }
}
