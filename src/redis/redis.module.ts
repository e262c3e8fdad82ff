import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';

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
        // outage (fault test redis-outage). It reconnects by itself; say so once per outage.
        const logger = new Logger('Redis');
        let down = false;
        redis.on('error', (err: Error) => {
          if (!down) logger.warn(`Redis unreachable (${err.message}); reconnecting`);
          down = true;
        });
        redis.on('ready', () => {
          if (down) logger.log('Redis reachable again');
          down = false;
        });
        return redis;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
