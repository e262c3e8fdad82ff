import type Redis from 'ioredis';
import { evalCached } from './redis-script';

/** Redis's own clock in ms, so the processes' clocks never matter. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] the lease set; ARGV: cap, lease id, lease ms. 1 when the lease was taken. */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** KEYS[1] the lease set; ARGV: lease id, lease ms. Extends a lease still held; a lapsed one stays lapsed. */
const RENEW = `${NOW}
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * A counting semaphore in Redis shared by every process: one sorted set per key, a member per
 * lease scored by the end of its lease. Lapsed leases are dropped before counting, so a process
 * that died holding one frees it by itself after `leaseMs`.
 */
export const redisLease = {
  /** True when `leaseId` now holds one of the key's `cap` leases. */
  async acquire(redis: Redis, key: string, cap: number, leaseId: string, leaseMs: number): Promise<boolean> {
    return (await evalCached(redis, ACQUIRE, [key], [cap, leaseId, leaseMs])) === 1;
  },

  async renew(redis: Redis, key: string, leaseId: string, leaseMs: number): Promise<void> {
    await evalCached(redis, RENEW, [key], [leaseId, leaseMs]);
  },

  async release(redis: Redis, key: string, leaseId: string): Promise<void> {
    await redis.zrem(key, leaseId);
  },
};
