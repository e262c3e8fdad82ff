import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import { evalCached } from './redis-script';

/**
 * Takes a lease if the account holds fewer than its cap. Leases expire (a worker that died mid-send
 * frees its slot by itself), and the time is Redis's so every process agrees on it.
 * KEYS[1] the account's lease set; ARGV: cap, lease id, lease ms.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

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
    return (await evalCached(this.redis, ACQUIRE, [this.prefix + accountId], [this.config.WEBHOOK_ACCOUNT_CONCURRENCY, leaseId, leaseMs])) === 1;
  }

  async release(accountId: string, leaseId: string): Promise<void> {
    await this.redis.zrem(this.prefix + accountId, leaseId);
  }
}
