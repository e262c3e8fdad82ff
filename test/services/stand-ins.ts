import { getQueueToken } from '@nestjs/bullmq';
import type { InjectionToken } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { JobQueue } from '../../src/jobs/job-queue';
import { QUEUES } from '../../src/queue/queue.module';
import type { DeliverJob } from '../../src/webhooks/webhooks.service';
import { StubQueue } from './stub-queue';

/**
 * A provider a service test replaces, with the reason. Only what crosses the process boundary has
 * one: what another process would do with it (a worker taking a queued job, a receiver answering
 * a request) is not the module's to test here, and the test must see or steer the hand-over.
 */
export interface StandIn {
  name: string;
  why: string;
  token: InjectionToken;
  value: unknown;
}

/**
 * The media queues' producer (BullMQ). A worker process consumes what it adds; the test reads what
 * was queued and at which fair-share rank, answers the queue's state of a job (a job the queue lost
 * or gave up on), and refuses or holds the next add (Redis down, a slow enqueue).
 */
export function mediaQueue(stub = new StubQueue()): StandIn & { value: StubQueue } {
  return { name: 'media queue producer', why: 'a worker process consumes it; the test reads and steers the hand-over', token: JobQueue, value: stub };
}

export interface ScheduledDelivery {
  deliveryId: string;
  delayMs: number;
}

/**
 * The webhook delivery queue (BullMQ): WebhooksService's producer side. The sender, in a worker
 * process, consumes it; the test reads which attempt was planned with which delay.
 */
export function webhookQueue(scheduled: ScheduledDelivery[] = []): StandIn & { scheduled: ScheduledDelivery[] } {
  const producer = {
    add: async (_name: string, data: DeliverJob, opts: JobsOptions = {}) => {
      scheduled.push({ deliveryId: data.deliveryId, delayMs: opts.delay ?? 0 });
      return { id: opts.jobId };
    },
    on: () => undefined,
  };
  return { name: 'webhook delivery queue producer', why: 'the sender consumes it in a worker process', token: getQueueToken(QUEUES.webhooks), value: producer, scheduled };
}
