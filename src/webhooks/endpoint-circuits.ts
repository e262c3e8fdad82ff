import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { WebhookDelivery as WebhookDeliveryView } from '../../generated/types';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import { evalCached } from '../redis/redis-script';

export type CircuitView = NonNullable<WebhookDeliveryView['circuit']>;
/** What an attempt may do: send, send as the one probe of a cooled-down breaker, or nothing until `until` (ms). */
export type CircuitGate = { verdict: 'send' } | { verdict: 'probe' } | { verdict: 'open'; until: number; timeouts: number };
/** How an attempt ended, for the breaker: an HTTP answer of any status, a timeout, or another failure. */
export type CircuitOutcome = 'answered' | 'timeout' | 'other';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] the breaker; ARGV: probe lease ms. Returns {verdict, until, timeouts}. */
const GATE = `${NOW}
local h = redis.call('HMGET', KEYS[1], 'state', 'openUntil', 'probeUntil', 'timeouts')
if h[1] ~= 'open' and h[1] ~= 'half_open' then return {'send', 0, 0} end
local openUntil = tonumber(h[2]) or 0
if now < openUntil then return {'open', openUntil, tonumber(h[4]) or 0} end
local probeUntil = tonumber(h[3]) or 0
if now < probeUntil then return {'open', probeUntil, tonumber(h[4]) or 0} end
redis.call('HSET', KEYS[1], 'state', 'half_open', 'probeUntil', now + tonumber(ARGV[1]))
return {'probe', 0, 0}`;

/** KEYS[1] the breaker; ARGV: outcome, threshold, cool-down ms, was a probe (1/0), key ttl ms. */
const RECORD = `${NOW}
if ARGV[1] == 'answered' then redis.call('DEL', KEYS[1]) return 1 end
local state = redis.call('HGET', KEYS[1], 'state')
local open = false
if ARGV[1] == 'timeout' then
  local n = redis.call('HINCRBY', KEYS[1], 'timeouts', 1)
  open = state == 'open' or state == 'half_open' or n >= tonumber(ARGV[2])
else
  open = ARGV[4] == '1'
end
if open then
  redis.call('HSET', KEYS[1], 'state', 'open', 'openUntil', now + tonumber(ARGV[3]))
  redis.call('HDEL', KEYS[1], 'probeUntil')
elseif not state then
  redis.call('HSET', KEYS[1], 'state', 'closed')
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * A circuit breaker per endpoint — a receiver origin as one account uses it — kept in Redis so
 * every worker process sees the same state (states and thresholds: openapi.yaml, WebhookDelivery
 * `circuit`). An endpoint that keeps timing out stops taking the workers' slots for 10 s each;
 * per account, so no tenant can open a breaker on another tenant's receiver.
 */
@Injectable()
export class EndpointCircuits {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {
    this.prefix = `${deploymentPrefix(config)}:webhooks:circuit:`;
  }

  async gate(accountId: string, url: string): Promise<CircuitGate> {
    const probeLeaseMs = this.config.WEBHOOK_TIMEOUT_S * 1000 + 10_000;
    const [verdict, until, timeouts] = (await evalCached(this.redis, GATE, [this.key(accountId, url)], [probeLeaseMs])) as [string, number, number];
    if (verdict === 'open') return { verdict, until, timeouts };
    return { verdict: verdict === 'probe' ? 'probe' : 'send' };
  }

  async record(accountId: string, url: string, outcome: CircuitOutcome, probe: boolean): Promise<void> {
    const cooldownMs = this.config.WEBHOOK_BREAKER_COOLDOWN_S * 1000;
    // Timeouts "in a row" are forgotten after a quiet day.
    const ttlMs = cooldownMs + 24 * 3600_000;
    await evalCached(this.redis, RECORD, [this.key(accountId, url)], [outcome, this.config.WEBHOOK_BREAKER_THRESHOLD, cooldownMs, probe ? 1 : 0, ttlMs]);
  }

  /** The breakers of these URLs as they are now, by URL; null for each when Redis cannot be read. */
  async views(accountId: string, urls: string[]): Promise<Map<string, CircuitView | null>> {
    const unique = [...new Set(urls)];
    const result = new Map<string, CircuitView | null>(unique.map((u) => [u, null]));
    if (unique.length === 0) return result;
    try {
      const pipeline = this.redis.pipeline();
      for (const url of unique) pipeline.hmget(this.key(accountId, url), 'state', 'openUntil', 'timeouts');
      pipeline.time();
      const replies = (await pipeline.exec()) ?? [];
      const [, time] = replies[replies.length - 1] as [Error | null, [string, string]];
      const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
      unique.forEach((url, i) => {
        const [err, fields] = replies[i] as [Error | null, (string | null)[]];
        if (err) return;
        const [state, openUntil, timeouts] = fields;
        const tripped = state === 'open' || state === 'half_open';
        result.set(url, {
          state: !tripped ? 'closed' : now < Number(openUntil) ? 'open' : 'half_open',
          consecutiveTimeouts: Number(timeouts ?? 0),
          openUntil: tripped ? new Date(Number(openUntil)).toISOString() : null,
        });
      });
    } catch {
      // Redis unreachable: the delivery log still answers, without the breakers (`circuit: null`).
    }
    return result;
  }

  private key(accountId: string, url: string): string {
    return `${this.prefix}${accountId}:${endpointOf(url)}`;
  }
}

/** The receiver's origin (scheme, host, port): the paths of one receiver share its breaker. */
export function endpointOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}
