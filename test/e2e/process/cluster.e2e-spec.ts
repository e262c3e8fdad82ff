import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { apiCall, type ApiProcess, createTenant, killAll, startApi, waitUntil } from '../../support/processes';

jest.setTimeout(180_000);

/** The child processes of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** Issue 9 item 6: WEB_CONCURRENCY=N runs N API processes on one port. */
describe('WEB_CONCURRENCY', () => {
  let api: ApiProcess;
  let storageDir: string;

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-cluster-'));
    api = await startApi(
      {
        DATABASE_URL: TEST_DATABASE_URL,
        REDIS_URL: TEST_REDIS_URL,
        STORAGE_DIR: storageDir,
        WORKER_IN_PROCESS: 'false',
        QUEUE_PREFIX: `bull:test-cluster-${Math.random().toString(36).slice(2, 8)}`,
        WEB_CONCURRENCY: '2',
      },
      { timeoutMs: 120_000 },
    );
  });
  afterAll(async () => {
    await killAll();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  it('serves from two processes sharing the port, replaces one that dies, and stops them all on SIGTERM', async () => {
    const tenant = await createTenant(TEST_DATABASE_URL);
    await waitUntil('two API processes', () => childrenOf(api.pid).length === 2, 120_000);
    const [first, second] = childrenOf(api.pid);
    // Each request on its own connection: the primary hands connections round-robin to the two.
    for (let i = 0; i < 10; i++) expect((await apiCall(api.baseUrl, tenant.token, 'GET', '/v1/drops')).status).toBe(200);

    process.kill(first, 'SIGKILL');
    await waitUntil(
      'a replacement process',
      () => {
        const now = childrenOf(api.pid);
        return now.length === 2 && !now.includes(first) && now.includes(second);
      },
      120_000,
    );
    await waitUntil('requests served again', async () => (await apiCall(api.baseUrl, tenant.token, 'GET', '/v1/drops')).status === 200, 120_000);

    const stopped = await api.stop('SIGTERM', 60_000);
    expect(stopped).toMatchObject({ code: 0, forced: false });
  });
});
