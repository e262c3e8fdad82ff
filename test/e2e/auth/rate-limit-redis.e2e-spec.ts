import Redis from 'ioredis';
import { claimSize } from '../../../src/auth/rate-limiter.service';
import { startPrivateRedis } from '../../support/private-redis';
import { startTestApp, type TestApp, uniqueSlug } from '../../support/test-app';

/** Redis commands run since `CONFIG RESETSTAT`, by name (INFO commandstats), minus the probe's own. */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  const calls: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[m[1]] = Number(m[2]);
  for (const own of ['info', 'config|resetstat', 'config']) delete calls[own];
  return calls;
}

/** Issue 9 item 3: an authenticated plain read costs one Redis round trip (the rate limit), nothing more. */
describe('Redis per request', () => {
  let redisServer: Awaited<ReturnType<typeof startPrivateRedis>>;
  let redis: Redis;
  let t: TestApp;

  beforeAll(async () => {
    redisServer = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redisServer.url });
    redis = new Redis(redisServer.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
    redisServer?.stop();
  });

  it('a key over its limit is refused from memory for the rest of its window, without Redis', async () => {
    const tenant = await t.newTenant({ plan: 'free' });
    // 5/s: a 6th request within one window is refused by Redis's count and blocks the key in
    // memory until that window ends. Bursts until one is refused (a slow machine may straddle windows).
    const deadline = Date.now() + 30_000;
    let limited = false;
    while (!limited && Date.now() < deadline) {
      const burst = await Promise.all(Array.from({ length: 8 }, () => tenant.client.GET('/v1/drops')));
      expect(burst.every((r) => r.response.status === 200 || r.response.status === 429)).toBe(true);
      limited = burst.some((r) => r.response.status === 429);
    }
    expect(limited).toBe(true);
    await redis.config('RESETSTAT');
    const { response, error } = await tenant.client.GET('/v1/drops');
    const calls = await commandCalls(redis);
    // Unless the 1 s window ended meanwhile (a slow machine), the answer came from memory.
    if (response.status === 429) {
      expect(error).toMatchObject({ error: { code: 'rate_limited' } });
      expect(calls).toEqual({});
    } else {
      expect(calls.evalsha).toBe(1);
    }
  });

  it('GET /v1/drops/{slug} makes one Redis round trip per batch of claimSize requests (EVALSHA of the rate limiter)', async () => {
    const tenant = await t.newTenant({ plan: 'max' });
    // Counted in a window of a minute (the key's counter made long here), so every request below shares one window.
    await redis.set(`${t.queuePrefix}:rl:key:50:${tenant.keyId}`, 0, 'PX', 60_000);
    const slug = uniqueSlug('rl');
    expect((await tenant.client.POST('/v1/drops', { body: { name: 'Redis calls', slug } })).response.status).toBe(201);
    await redis.config('RESETSTAT');
    for (let i = 0; i < 10; i++) {
      const { response } = await tenant.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(50 - (i + 2))); // exact in one process: the POST, then these
    }
    // max: 50/s claimed 5 at a time (src/auth/rate-limiter.service.ts): 10 reads, 2 claims. commandstats
    // also counts the commands the limiter's Lua script runs inside Redis (set NX, incrby, pttl).
    expect(claimSize(50)).toBe(5);
    expect(await commandCalls(redis)).toEqual({ evalsha: 2, set: 2, incrby: 2, pttl: 2 });
  });

  it('a plain read runs while Redis decides, yet a refused one answers 429 whatever its handler found', async () => {
    // GETs do not wait for the verdict before the handler (src/auth/deferred-rate-limit.ts): a
    // missing drop's 404 must still turn into 429 when the key is over its limit, with its headers.
    const tenant = await t.newTenant({ plan: 'free' });
    const deadline = Date.now() + 30_000;
    const answers: { response: Response; error?: unknown }[] = [];
    while (!answers.some((a) => a.response.status === 429) && Date.now() < deadline) {
      const burst = await Promise.all(Array.from({ length: 8 }, () => tenant.client.GET('/v1/drops/{slug}', { params: { path: { slug: uniqueSlug('none') } } })));
      expect(burst.every((a) => a.response.status === 404 || a.response.status === 429)).toBe(true);
      answers.push(...burst);
    }
    const refused = answers.find((a) => a.response.status === 429)!;
    expect(refused.error).toMatchObject({ error: { code: 'rate_limited', message: expect.stringMatching(/^Rate limit of 5 requests per second exceeded/) } });
    expect(refused.response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(refused.response.headers.get('ratelimit-remaining')).toBe('0');
    // The first burst's first five fit the window: their 404s carry the verdict's headers.
    const missing = answers.find((a) => a.response.status === 404);
    expect(missing?.response.headers.get('ratelimit-limit')).toBe('5');
  });
});
