import { readFileSync } from 'node:fs';
import { TEST_DATABASE_URL } from '../../support/env';
import { spawnService, type ServiceProcess, waitUntil } from '../../support/processes';
import { freePort } from '../../support/test-app';

jest.setTimeout(120_000);

/**
 * SIGTERM while Redis is unreachable and nothing is in flight: the process exits at once (exit 0),
 * not after the whole SHUTDOWN_TIMEOUT_S waiting for a connection that never comes. Nothing shared
 * is stopped: each process is pointed at a loopback port where no Redis listens.
 */
describe('shutdown with Redis down', () => {
  const started: ServiceProcess[] = [];
  afterAll(async () => {
    for (const p of started) if (p.isAlive()) await p.stop('SIGKILL');
  });

  it.each([
    ['api', 'Dropline API listening'],
    ['worker', 'Worker ready'],
  ] as const)('%s exits within 2 s of SIGTERM, code 0', async (kind, readyLine) => {
    const p = spawnService(kind, {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      QUEUE_PREFIX: `bull:down-${Math.random().toString(36).slice(2, 8)}`,
      // The bound this test must not wait out.
      SHUTDOWN_TIMEOUT_S: '10',
    });
    started.push(p);
    const log = () => readFileSync(p.logFile, 'utf8');
    await waitUntil(`${kind} up with Redis unreachable`, () => !p.isAlive() || (log().includes(readyLine) && log().includes('REDIS_URL')), 60_000);
    expect(p.isAlive()).toBe(true);
    const sentAt = Date.now();
    const exit = await p.stop('SIGTERM', 15_000);
    const ms = Date.now() - sentAt;
    expect({ ...exit, fast: ms < 2000 }).toEqual({ code: 0, signal: null, forced: false, fast: true });
  });
});
