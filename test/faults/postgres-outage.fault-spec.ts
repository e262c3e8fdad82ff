import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startPrivateRedis } from '../support/private-redis';
import {
  apiCall,
  type ApiProcess,
  createTenant,
  faultDatabaseName,
  type FaultTenant,
  freshDatabase,
  killAll,
  type RawAnswer,
  rawRequest,
  sleep,
  startApi,
  waitUntil,
} from '../support/processes';

/**
 * Fault 3 (issue 6): Postgres stops under a running API (`pg_ctl stop -m fast` on a throwaway
 * cluster). Readiness turns 503, every request that needs the database is answered promptly with
 * 503 `unavailable` in the error envelope — never a 500, never a hang — and when Postgres is back
 * the same process serves again, without a restart.
 */
jest.setTimeout(180_000);

describe('fault: Postgres outage', () => {
  let pg: PrivatePostgres;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let storageDir: string;
  let api: ApiProcess;
  let tenant: FaultTenant;
  let slug: string;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    const database = await freshDatabase(pg.url(faultDatabaseName('pg_outage')));
    redis = await startPrivateRedis();
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-faults-pg-'));
    api = await startApi({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: storageDir,
      WORKER_IN_PROCESS: 'false',
      PUBLIC_RATE_LIMIT: '100000',
    });
    tenant = await createTenant(database.url, { credits: 100 });
    slug = `pg-outage-${Date.now().toString(36)}`;
    const created = await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/drops', { name: 'Outage', slug });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await killAll();
    redis?.stop();
    pg?.destroy();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  /** Requests that all need Postgres: key lookup, reads, writes, a job, the public side. */
  const probes = (): Promise<RawAnswer>[] => [
    apiCall(api.baseUrl, tenant.token, 'GET', '/v1/account'),
    apiCall(api.baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`),
    apiCall(api.baseUrl, tenant.token, 'GET', '/v1/drops'),
    apiCall(api.baseUrl, tenant.token, 'POST', '/v1/drops', { name: 'During', slug: `${slug}-${Math.random().toString(36).slice(2, 8)}` }),
    apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.jpg' }, options: { width: 10 } }),
    apiCall(api.baseUrl, undefined, 'GET', `/v1/public/drops/${slug}`),
  ];
  const summary = (answers: RawAnswer[]) => answers.map((a) => `${a.status ?? a.error} ${a.body?.error?.code ?? ''}`.trim());

  it('readyz 503 and 503 `unavailable` envelopes while Postgres is down; recovers by itself', async () => {
    const before = await rawRequest(`${api.baseUrl}/readyz`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', scanning: 'off', ffmpeg: 'ok', libreoffice: 'ok', poppler: 'ok' } });
    expect((await Promise.all(probes())).map((a) => a.status)).toEqual([200, 200, 200, 201, 202, 200]);

    pg.stop();
    const stoppedAt = Date.now();

    const ready = await rawRequest(`${api.baseUrl}/readyz`, { timeoutMs: 10_000 });
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', checks: { postgres: 'down', redis: 'ok', scanning: 'off', ffmpeg: 'ok', libreoffice: 'ok', poppler: 'ok' } });
    // Liveness is not readiness: the process is fine and must not be restarted by an orchestrator.
    expect((await rawRequest(`${api.baseUrl}/healthz`)).status).toBe(200);

    // Several rounds: the first hits pooled connections Postgres terminated, later ones get refused.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(probes());
      console.log(`postgres-outage: round ${round} during the outage: ${summary(answers).join(', ')}`);
      for (const a of answers) {
        expect(a.status).toBe(503);
        expect(a.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
        expect(a.ms).toBeLessThan(5000);
      }
      await sleep(500);
    }
    expect(api.isAlive()).toBe(true);

    pg.start();
    const downFor = Date.now() - stoppedAt;
    const recovered = Date.now();
    await waitUntil('readyz 200 after Postgres is back', async () => (await rawRequest(`${api.baseUrl}/readyz`)).status === 200, 30_000, 250);
    const after = await waitUntil(
      'requests to succeed again',
      async () => {
        const answers = await Promise.all(probes());
        return answers.every((a) => a.status !== null && a.status < 300) ? answers : undefined;
      },
      30_000,
      250,
    );
    console.log(`postgres-outage: down ${downFor} ms, ready again ${Date.now() - recovered} ms after the restart: ${summary(after).join(', ')}`);
    expect(after.map((a) => a.status)).toEqual([200, 200, 200, 201, 202, 200]);
    expect(api.isAlive()).toBe(true);
  });
});
