import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { claimSize } from '../../../src/auth/rate-limiter.service';
import { PLAN_LIMITS } from '../../../src/config/plans';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { apiCall, type ApiProcess, createTenant, type FaultTenant, killAll, rawRequest, startApi, waitUntil } from '../../support/processes';

jest.setTimeout(240_000);

/** A counter of this process's /metrics (0 when absent). */
async function metric(api: ApiProcess, line: string): Promise<number> {
  const res = await rawRequest(`${api.baseUrl}/metrics`);
  const escaped = line.replace(/[{}"]/g, (c) => `\\${c}`);
  const match = new RegExp(`^${escaped} (\\d+)`, 'm').exec(String(res.body));
  return match ? Number(match[1]) : 0;
}

/**
 * Issue 25 item 3: the authenticated drop read is served from per-process state — rate-limit
 * leases claimed from Redis in batches, the drop row cached with LISTEN/NOTIFY invalidation —
 * and both stay right across two API processes on one database and one Redis.
 */
describe('read path across two API processes', () => {
  let apis: ApiProcess[];
  let storageDir: string;
  let redis: Redis;
  const queuePrefix = `bull:test-readpath-${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-read-path-'));
    const env = {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORAGE_DIR: storageDir,
      WORKER_IN_PROCESS: 'false',
      QUEUE_PREFIX: queuePrefix,
      SIGNING_SECRET: 'read-path-test-signing-secret-0123456789',
    };
    apis = await Promise.all([startApi(env, { timeoutMs: 120_000 }), startApi(env, { timeoutMs: 120_000 })]);
    redis = new Redis(TEST_REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await killAll();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  /**
   * The shared 1 s window of a key, stretched to a minute: a slow machine cannot straddle two
   * windows, so every request below counts against one limit. (The window is the key's Redis
   * counter, which the limiter creates with `SET … NX` and only increments.)
   */
  async function oneLongWindow(tenant: FaultTenant, perSecond: number): Promise<void> {
    await redis.set(`${queuePrefix}:rl:key:${perSecond}:${tenant.keyId}`, 0, 'PX', 60_000);
  }

  /** Sends `total` reads, `concurrency` at a time, spread round-robin over `targets`. */
  async function burst(targets: ApiProcess[], token: string, total: number, concurrency = 10) {
    const answers: { status: number | null; process: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          const res = await apiCall(targets[i % targets.length].baseUrl, token, 'GET', '/v1/drops');
          answers.push({ status: res.status, process: i % targets.length });
        }
      }),
    );
    return answers;
  }

  const max = PLAN_LIMITS.max.requestsPerSecond; // 50 a second, claimed 5 at a time
  const batch = claimSize(max);

  it('one process admits exactly the limit in a window', async () => {
    const tenant = await createTenant(TEST_DATABASE_URL, { plan: 'max' });
    await oneLongWindow(tenant, max);
    const answers = await burst([apis[0]], tenant.token, max + 30);
    expect(answers.filter((a) => a.status === null || (a.status !== 200 && a.status !== 429))).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(max);
  });

  it('two processes together never admit more than the limit (tolerance 0), and at most one batch less per other process', async () => {
    expect(batch).toBeGreaterThan(1); // otherwise this would not test the batching
    for (let round = 1; round <= 3; round++) {
      const tenant = await createTenant(TEST_DATABASE_URL, { plan: 'max' });
      await oneLongWindow(tenant, max);
      const answers = await burst(apis, tenant.token, 3 * max);
      expect(answers.filter((a) => a.status === null || (a.status !== 200 && a.status !== 429))).toEqual([]);
      const admitted = answers.filter((a) => a.status === 200).length;
      // README "Rate limits across processes": at most limit × (1 + 0); at least limit − (P − 1) × (batch − 1).
      expect({ round, admitted, atMost: admitted <= max }).toEqual({ round, admitted, atMost: true });
      expect(admitted).toBeGreaterThanOrEqual(max - (batch - 1));
      // Both processes took part.
      expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.process)).size).toBe(2);
    }
  });

  it('a drop changed through one process is seen by the next read in the other, though both cached it (5 rounds)', async () => {
    const tenant = await createTenant(TEST_DATABASE_URL);
    const slug = `read-path-${Date.now().toString(36)}`;
    expect((await apiCall(apis[0].baseUrl, tenant.token, 'POST', '/v1/drops', { name: 'round 0', slug })).status).toBe(201);
    const cacheHit = 'dropline_drop_lookups_total{source="cache"}';
    for (let round = 1; round <= 5; round++) {
      // Both processes answer the drop from their cache (their listener may still be connecting at first).
      for (const api of apis) {
        const before = await metric(api, cacheHit);
        await waitUntil(
          `a drop cache hit on ${api.baseUrl}`,
          async () => {
            const res = await apiCall(api.baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`);
            expect(res.status).toBe(200);
            expect(res.body.drop.name).toBe(`round ${round - 1}`);
            return (await metric(api, cacheHit)) > before;
          },
          60_000,
          100,
        );
      }
      const [writer, reader] = round % 2 ? apis : [...apis].reverse();
      const patched = await apiCall(writer.baseUrl, tenant.token, 'PATCH', `/v1/drops/${slug}`, { name: `round ${round}` });
      expect(patched.status).toBe(200);
      const read = await apiCall(reader.baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`);
      expect({ round, status: read.status, name: read.body.drop?.name }).toEqual({ round, status: 200, name: `round ${round}` });
    }
    // A deletion too: the other process answers 404 at once.
    expect((await apiCall(apis[0].baseUrl, tenant.token, 'DELETE', `/v1/drops/${slug}`)).status).toBe(204);
    expect((await apiCall(apis[1].baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`)).status).toBe(404);
  });
});
