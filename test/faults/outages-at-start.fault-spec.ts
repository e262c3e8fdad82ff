import { readFileSync } from 'node:fs';
import { freePort } from '../support/test-app';
import { rawRequest, spawnService, type ServiceProcess } from '../support/processes';
import { TEST_DATABASE_URL } from '../support/env';

jest.setTimeout(180_000);

/**
 * The API and the worker started while Postgres or Redis is not there (a closed loopback port):
 * one clear JSON line naming the variable and the address, no stack frames, reconnect attempts
 * logged at most once per 10 s, /readyz 503 meanwhile, and SIGTERM/SIGINT honoured in every state.
 */
describe('outages at start', () => {
  const started: ServiceProcess[] = [];
  afterAll(async () => {
    for (const p of started) if (p.isAlive()) await p.stop('SIGKILL');
  });

  const log = (p: ServiceProcess) => readFileSync(p.logFile, 'utf8');
  const lines = (p: ServiceProcess) => log(p).split('\n').filter(Boolean);

  async function until(what: string, probe: () => boolean | Promise<boolean>, p: ServiceProcess): Promise<void> {
    const deadline = Date.now() + 90_000;
    while (!(await probe())) {
      if (Date.now() > deadline || !p.isAlive()) throw new Error(`${what} never happened:\n${p.tail(40)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every line is JSON and none is a stack frame; the outage lines name `variable` and `address`. */
  function expectClearOutageLog(p: ServiceProcess, variable: string, address: string): void {
    const text = log(p);
    expect(text).not.toMatch(/^\s+at /m);
    for (const line of lines(p)) expect(() => JSON.parse(line)).not.toThrow();
    const outage = lines(p).filter((l) => l.includes('unreachable'));
    expect(outage.length).toBeGreaterThan(0);
    for (const line of outage) expect(JSON.parse(line).msg).toContain(`${address} (${variable})`);
  }

  async function expectStopsOnSignal(p: ServiceProcess, signal: NodeJS.Signals): Promise<void> {
    // stop() sends the signal and only SIGKILLs after the generous bound: forced means it was ignored.
    const exit = await p.stop(signal, 30_000);
    expect(exit.forced).toBe(false);
  }

  it.each([
    ['api', 'SIGTERM'],
    ['worker', 'SIGINT'],
  ] as const)('%s with Postgres unreachable: one clear line naming DATABASE_URL, stops on %s', async (kind, signal) => {
    const port = await freePort();
    const p = spawnService(kind, { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nothing`, LOG_LEVEL: 'info', PORT: String(await freePort()) });
    started.push(p);
    await until('the outage line', () => log(p).includes('DATABASE_URL'), p);
    // Retries go on every second; the log does not grow with them.
    await new Promise((r) => setTimeout(r, 3000));
    expectClearOutageLog(p, 'DATABASE_URL', `127.0.0.1:${port}`);
    expect(lines(p).filter((l) => l.includes('unreachable'))).toHaveLength(1);
    await expectStopsOnSignal(p, signal);
  });

  it.each([
    ['api', 'SIGTERM'],
    ['worker', 'SIGTERM'],
  ] as const)('%s with Redis unreachable: one line per 10 s naming REDIS_URL, /readyz 503, stops on %s', async (kind, signal) => {
    const redisPort = await freePort();
    const port = await freePort();
    const p = spawnService(kind, {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      QUEUE_PREFIX: `bull:outage-${Math.random().toString(36).slice(2, 8)}`,
    });
    started.push(p);
    await until('the outage line', () => log(p).includes('REDIS_URL'), p);
    if (kind === 'api') {
      await until('/readyz', async () => (await rawRequest(`http://127.0.0.1:${port}/readyz`, { timeoutMs: 5000 })).status === 503, p);
    } else {
      await new Promise((r) => setTimeout(r, 3000));
    }
    expectClearOutageLog(p, 'REDIS_URL', `127.0.0.1:${redisPort}`);
    // ioredis and BullMQ retry many times a second: their attempts share one line per 10 s.
    const outage = lines(p)
      .filter((l) => l.includes('unreachable'))
      .map((l) => JSON.parse(l).timestamp as number);
    for (let i = 1; i < outage.length; i++) expect(outage[i] - outage[i - 1]).toBeGreaterThanOrEqual(10_000);
    await expectStopsOnSignal(p, signal);
  });
});
