import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import { redisLease } from '../redis/redis-lease';

/**
 * A per-account semaphore on webhook sends, shared by every worker process through Redis
 * (BullMQ's groups, which would do this, are a Pro feature). `WEBHOOK_ACCOUNT_CONCURRENCY` sends
 * of one account at once; a hanging receiver holds no more of the workers' slots than that.
 */
@Injectable()
export class AccountSlots {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {
    this.prefix = `${deploymentPrefix(config)}:webhooks:slots:`;
  }

  /** True when the lease was taken; it lasts the send's timeout plus a margin, unless released. */
  async acquire(accountId: string, leaseId: string): Promise<boolean> {
    const leaseMs = this.config.WEBHOOK_TIMEOUT_S * 1000 + 10_000;
    return redisLease.acquire(this.redis, this.prefix + accountId, this.config.WEBHOOK_ACCOUNT_CONCURRENCY, leaseId, leaseMs);
  }

  async release(accountId: string, leaseId: string): Promise<void> {
    await redisLease.release(this.redis, this.prefix + accountId, leaseId);
  }
}
