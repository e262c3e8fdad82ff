import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { OutageLog } from '../process/outage-log';

export const REDIS = Symbol('REDIS');

/**
 * One shared connection for rate limits, idempotency locks and readiness. The offline queue is
 * off so a Redis outage fails requests at once (503) instead of hanging them.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
        // Without a listener ioredis prints "Unhandled error event" at every reconnect attempt of an
        // outage (fault test redis-outage). It reconnects by itself; the shared outage log says so.
        const log = OutageLog.of('Redis', 'REDIS_URL', config.REDIS_URL);
        redis.on('error', (err: Error) => log.failed(err));
        redis.on('ready', () => log.recovered());
        return redis;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    // QUIT needs a live connection: during an outage it would wait for one that never comes.
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
