import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase } from '../../support/databases';
import { TEST_QUEUE_PREFIX, TEST_RUN_ID } from '../../support/env';
import { startPrivateRedis } from '../../support/private-redis';
import { killAll, startApi } from '../../support/processes';
import { deleteRedisKeys, freePort } from '../../support/test-app';

jest.setTimeout(120_000);

interface Line {
  level: string;
  msg: string;
  context?: string;
  err?: unknown;
}

/**
 * `npm start` on a machine where it creates the database and Redis is not up yet (a private
 * Redis port nothing listens on, started midway): the log says what the start did, says it is not
 * ready rather than "successfully started" while /readyz answers 503 (a warning, no stack), and
 * says where to go once Redis is there. Nest's route-mapping lines are debug, not info.
 */
describe('the first start', () => {
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/dropline_first_start_${TEST_RUN_ID}_${Math.random().toString(36).slice(2, 8)}`;
  const queuePrefix = `${TEST_QUEUE_PREFIX}-first-start`;
  let dir: string;
  let stopRedis: (() => void) | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-first-start-'));
  });
  afterAll(async () => {
    await killAll();
    if (stopRedis) {
      stopRedis();
    }
    await dropDatabase(databaseUrl);
    await rm(dir, { recursive: true, force: true });
  });

  const linesOf = (file: string): Line[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Line)
      : [];

  async function lineMatching(file: string, pattern: RegExp, timeoutMs = 60_000): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = linesOf(file).find((l) => pattern.test(l.msg));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no log line matching ${pattern} in ${file}:\n${readFileSync(file, 'utf8').slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('says what it did, waits for Redis before saying it is ready, and logs the readiness 503 as a warning without a stack', async () => {
    const redisPort = await freePort();
    const api = await startApi({
      DATABASE_URL: databaseUrl,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      QUEUE_PREFIX: queuePrefix,
      STORAGE_DIR: join(dir, 'files'),
      WORKER_IN_PROCESS: 'true',
      LOG_LEVEL: 'info',
    });

    const database = await lineMatching(api.logFile, /^Database dropline_first_start_/);
    expect(database.msg).toMatch(/: created, \d+ migrations applied; worker running in this process$/);
    await lineMatching(api.logFile, /^Not ready: redis down; \/readyz answers 503 until it is back$/);

    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(503);
    const probe = await lineMatching(api.logFile, /^GET \/readyz 503$/);
    expect(probe.level).toBe('warn');
    expect(probe.err).toBeUndefined();

    const redis = await startPrivateRedis(redisPort);
    stopRedis = redis.stop;
    const ready = await lineMatching(api.logFile, /^Dropline is ready at /);
    expect(ready.msg).toBe(
      `Dropline is ready at ${api.baseUrl}: API docs at ${api.baseUrl}/docs; first, an account and a key: npm run -s admin -- account:create --plan pro --credits 100`,
    );
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(200);

    const lines = linesOf(api.logFile);
    expect(lines.filter((l) => /successfully started|^Mapped \{/.test(l.msg))).toEqual([]);
    // No error line at all: an outage at start is a warning, said once (OutageLog), not a stack per retry.
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    await api.stop();
    await deleteRedisKeys(redis.url, `${queuePrefix}:*`);
  });
});
