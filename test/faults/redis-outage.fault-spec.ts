import { Client } from 'pg';
import { makeJpeg, serveFiles } from '../support/media-fixtures';
import { createFaultStack, type FaultStack } from '../support/fault-stack';
import { startPrivateRedis } from '../support/private-redis';
import {
  apiCall,
  type ApiProcess,
  createTenant,
  type FaultTenant,
  freshDatabase,
  jobStates,
  ledgerProblems,
  type RawAnswer,
  type ServiceProcess,
  sleep,
  startApi,
  startWorker,
  waitUntil,
} from '../support/processes';

/**
 * Fault 2 (issue 6): Redis goes away for ~5 s while clients submit jobs, then comes back on the
 * same port. The private Redis keeps nothing across the restart (like the machine's own: no RDB,
 * no AOF), so whatever the queues held is gone too: Postgres, the truth, must bring it back.
 * During the outage submissions fail cleanly (500 `enqueue_failed` or 503, credits back); after
 * it the same API and worker processes recover by themselves and every 202-accepted job completes.
 */
jest.setTimeout(240_000);

const CREDITS = 100_000;
const CLIENTS = 4;

interface Submission extends RawAnswer {
  phase: 'before' | 'outage' | 'after';
}

describe('fault: Redis outage while clients submit jobs', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let db: Client;
  let api: ApiProcess;
  let worker: ServiceProcess;
  let tenant: FaultTenant;
  let stopped = false;
  let stack: FaultStack;

  beforeAll(async () => {
    stack = await createFaultStack('redis_outage', { 'photo.jpg': await makeJpeg(400, 300) });
    ({ database, redis, files, db } = stack);
    const env = stack.env({ WORKER_IN_PROCESS: 'false', WORKER_LOCK_DURATION_MS: '4000', WORKER_STALLED_INTERVAL_MS: '2000' });
    [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
    tenant = await createTenant(database.url, { credits: CREDITS });
  });

  afterAll(async () => {
    stopped = true; // the client loop, should an assertion have failed while it ran
    await stack?.teardown();
  });

  it('fails submissions cleanly during the outage, recovers by itself, completes every accepted job', async () => {
    let phase: Submission['phase'] = 'before';
    let running = true;
    const answers: Submission[] = [];
    const client = async () => {
      while (running && !stopped) {
        const at = phase;
        const res = await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 64 } });
        answers.push({ ...res, phase: at === phase ? at : 'outage' }); // straddling a boundary counts as the outage
        await sleep(20);
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);

    await sleep(4000);
    // A burst just before the stop leaves accepted jobs waiting in the queue: Redis loses them.
    const burst = await Promise.all(
      Array.from({ length: 40 }, () =>
        apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 64 } }),
      ),
    );
    answers.push(...burst.map((a) => ({ ...a, phase: 'before' as const })));
    phase = 'outage';
    redis.stop();
    const stoppedAt = Date.now();
    await sleep(5000);
    await redis.start();
    const restartedAt = Date.now();
    phase = 'after';
    // Recovery without any restart: the clients keep going until 202s come back, and some more.
    const firstAccepted = await waitUntil('a 202 after Redis is back', () => answers.find((a) => a.phase === 'after' && a.startedAt >= restartedAt && a.status === 202), 30_000);
    await sleep(4000);
    running = false;
    await Promise.all(clients);

    const count = (p: Submission['phase'], pred: (a: Submission) => boolean = () => true) => answers.filter((a) => a.phase === p && pred(a)).length;
    const accepted = answers.filter((a) => a.status === 202);
    console.log(
      `redis-outage: down ${restartedAt - stoppedAt} ms; before ${count('before', (a) => a.status === 202)}/${count('before')} accepted; ` +
        `outage ${count('outage', (a) => a.status === 202)} accepted, ${count('outage', (a) => a.status === 500)} × 500, ${count('outage', (a) => a.status === 503)} × 503 of ${count('outage')}; ` +
        `after ${count('after', (a) => a.status === 202)}/${count('after')} accepted, first ${firstAccepted.startedAt + firstAccepted.ms - restartedAt} ms after the restart`,
    );

    // Clean answers only: accepted, or refused with the envelope. No 500 of another kind, no reset.
    const unclean = answers.filter(
      (a) => !(a.status === 202 || (a.status === 500 && a.body?.error?.code === 'enqueue_failed') || (a.status === 503 && a.body?.error?.code === 'unavailable')),
    );
    expect(unclean.map((a) => `${a.phase} ${a.status ?? a.error} ${JSON.stringify(a.body)}`)).toEqual([]);
    for (const a of answers.filter((x) => x.status !== 202)) {
      expect(Object.keys(a.body.error).sort()).toEqual(['code', 'message']);
      expect(a.ms).toBeLessThan(10_000); // fails in bounded time, never hangs
    }
    expect(count('before')).toBe(count('before', (a) => a.status === 202));
    expect(count('outage', (a) => a.status !== 202)).toBeGreaterThan(0); // Redis really was down

    // Every accepted job completes; rows exist exactly for the accepted ones (refused ones were withdrawn).
    const ids = accepted.map((a) => a.body.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const final = await waitUntil(
      'every accepted job to be final',
      async () => {
        const s = await jobStates(db, tenant.account.id);
        return (s.queued ?? 0) + (s.running ?? 0) === 0 ? s : undefined;
      },
      120_000,
      500,
    );
    const requeued = (worker.tail(100_000).match(/unknown to the queue: enqueued again/g) ?? []).length;
    console.log(`redis-outage: final job states ${JSON.stringify(final)}; ${requeued} jobs lost with Redis and queued again by the sweeper`);
    expect(final).toEqual({ completed: ids.length });
    expect(requeued).toBeGreaterThan(0); // the outage did cost the queue its contents
    const rows = await db.query('SELECT id FROM jobs WHERE account_id = $1', [tenant.account.id]);
    expect(rows.rows.map((r) => r.id).sort()).toEqual([...ids].sort());

    // Credits: one debit per accepted job, every refused submission's debit refunded.
    expect(await ledgerProblems(db, tenant.account.id, CREDITS)).toEqual([]);
    const account = await apiCall(api.baseUrl, tenant.token, 'GET', '/v1/account');
    expect(account.body.account.creditBalance).toBe(CREDITS - ids.length);
    expect(api.isAlive() && worker.isAlive()).toBe(true);
  });
});
