import { BullModule, InjectQueue } from '@nestjs/bullmq';
import { Global, Injectable, Module } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../config/config';
import { OutageLog } from '../process/outage-log';

/** The queue names of the service; the media queues are named by the spec (`<kind>-standard-queue`). */
export const QUEUES = {
  webhooks: 'webhooks',
  image: 'image-standard-queue',
  video: 'video-standard-queue',
  audio: 'audio-standard-queue',
  document: 'document-standard-queue',
} as const;

export function redisOutageLog(config: AppConfig): OutageLog {
  return OutageLog.of('Redis', 'REDIS_URL', config.REDIS_URL);
}

/**
 * Every queue gets an 'error' listener: without one, each reconnect attempt of a Redis outage
 * was printed with its stack (760 lines in 8 s). They go to the shared, throttled outage log.
 */
@Injectable()
class QueueErrorListeners {
  // Attached in the constructor, as soon as the queues exist: a queue connects at once, and an
  // error emitted before the listener is there is printed with its stack.
  constructor(
    config: AppConfig,
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
    @InjectQueue(QUEUES.image) image: Queue,
    @InjectQueue(QUEUES.video) video: Queue,
    @InjectQueue(QUEUES.audio) audio: Queue,
    @InjectQueue(QUEUES.document) document: Queue,
  ) {
    const log = redisOutageLog(config);
    for (const queue of [webhooks, image, video, audio, document]) queue.on('error', (err) => log.failed(err, `queue ${queue.name}`));
  }
}

/** BullMQ over the configured Redis, for producers (API) and consumers (workers) alike. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.REDIS_URL, maxRetriesPerRequest: null },
        prefix: deploymentPrefix(config),
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
  ],
  providers: [QueueErrorListeners],
  exports: [BullModule],
})
export class QueueModule {}

/**
 * Queues are named after the database they serve: jobs live in Postgres, so two deployments (or
 * test runs) sharing one Redis with different databases must never consume each other's jobs.
 */
export function queuePrefix(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
  return `bull:${name}`;
}

/** The configured QUEUE_PREFIX or the database-derived default: this deployment's Redis namespace. */
export function deploymentPrefix(config: AppConfig): string {
  return config.QUEUE_PREFIX ?? queuePrefix(config.DATABASE_URL);
}
