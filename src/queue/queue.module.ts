import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config';

/** The queue names of the service; the media queues are named by the spec (`<kind>-standard-queue`). */
export const QUEUES = {
  webhooks: 'webhooks',
  image: 'image-standard-queue',
  video: 'video-standard-queue',
  audio: 'audio-standard-queue',
} as const;

/** BullMQ over the configured Redis, for producers (API) and consumers (workers) alike. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.REDIS_URL, maxRetriesPerRequest: null },
        prefix: config.QUEUE_PREFIX ?? queuePrefix(config.DATABASE_URL),
        defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000 },
      }),
    }),
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
  ],
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
