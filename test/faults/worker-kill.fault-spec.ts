import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from 'pg';
import { makeJpeg, serveFiles } from '../support/media-fixtures';
import { createFaultStack, type FaultStack } from '../support/fault-stack';
import {
  apiCall,
  type ApiProcess,
  createTenant,
  type FaultTenant,
  freshDatabase,
  jobStates,
  ledgerProblems,
  type ServiceProcess,
  startApi,
  startWorker,
  waitUntil,
} from '../support/processes';

/**
 * Fault 1 (issue 6): `kill -9` the worker in the middle of 200 image jobs, start a new one. BullMQ
 * finds the dead worker's jobs by their expired locks (shortened here with WORKER_LOCK_DURATION_MS
 * and WORKER_STALLED_INTERVAL_MS) and runs them again: every job completes, once charged.
 */
jest.setTimeout(240_000);

const JOBS = 200;
const INPUT_DELAY_MS = 100;
const CREDITS = 1000;

describe('fault: worker killed with SIGKILL mid-queue', () => {
  let stack: FaultStack;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let db: Client;
  let api: ApiProcess;
  let tenant: FaultTenant;
  let env: Record<string, string>;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await createFaultStack('worker_kill', { 'photo.jpg': await makeJpeg(800, 600) });
    ({ database, files, db } = stack);
    // Each input answers after 100 ms, so the worker always has jobs `running` to be killed in.
    const direct = files.server.listeners('request')[0];
    files.server.removeAllListeners('request');
    files.server.on('request', (req: IncomingMessage, res: ServerResponse) => void setTimeout(() => direct(req, res), INPUT_DELAY_MS));
    // A dead worker's job is picked up again ~4-6 s after the kill instead of ~30-60 s.
    env = stack.env({ WORKER_IN_PROCESS: 'false', WORKER_LOCK_DURATION_MS: '4000', WORKER_STALLED_INTERVAL_MS: '2000' });
    api = await startApi(env);
    tenant = await createTenant(database.url, { credits: CREDITS });
  });

  afterAll(async () => {
    await stack?.teardown();
  });

  it('all 200 jobs complete after kill -9 and a new worker; none left running; none charged twice', async () => {
    // The first worker starts while the jobs are being submitted.
    const firstWorker = startWorker(env);
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () =>
          apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 100 } }),
        ),
      );
      for (const res of batch) {
        expect(res.status).toBe(202);
        ids.push(res.body.id);
      }
    }
    workers.push(await firstWorker);

    // Kill while it is busy: some jobs done, some running, most still waiting.
    const atKill = await waitUntil(
      'the worker to be mid-queue',
      async () => {
        const s = await jobStates(db, tenant.account.id);
        return (s.completed ?? 0) >= 10 && (s.running ?? 0) >= 1 ? s : undefined;
      },
      90_000,
      20,
    );
    const killed = await workers[0].stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    // What it left `running` behind it: the jobs it died in.
    const runningAtKill = (await db.query(`SELECT id FROM jobs WHERE account_id = $1 AND state = 'running'`, [tenant.account.id])).rows.map((r) => r.id);
    const afterKill = await jobStates(db, tenant.account.id);
    console.log(`worker-kill: states at the kill ${JSON.stringify(atKill)}, after ${JSON.stringify(afterKill)}; left running by the killed worker: ${runningAtKill.length}`);
    expect(afterKill.completed ?? 0).toBeLessThan(JOBS);
    expect(afterKill.running ?? 0).toBeGreaterThanOrEqual(1);

    const started = Date.now();
    workers.push(await startWorker(env));
    const final = await waitUntil(
      'every job to be final',
      async () => {
        const s = await jobStates(db, tenant.account.id);
        return (s.queued ?? 0) + (s.running ?? 0) === 0 ? s : undefined;
      },
      150_000,
      500,
    );
    console.log(`worker-kill: all final ${Math.round((Date.now() - started) / 1000)} s after the new worker started: ${JSON.stringify(final)}`);

    expect(final).toEqual({ completed: JOBS });
    const { rows } = await db.query(`SELECT id, state FROM jobs WHERE id = ANY($1)`, [runningAtKill]);
    expect(rows.every((r) => r.state === 'completed')).toBe(true);
    expect(await ledgerProblems(db, tenant.account.id, CREDITS)).toEqual([]);
    const debits = await db.query(`SELECT count(*)::int AS n, COUNT(DISTINCT job_id)::int AS jobs FROM credit_ledger WHERE account_id = $1 AND reason = 'job_debit'`, [
      tenant.account.id,
    ]);
    expect(debits.rows[0]).toEqual({ n: JOBS, jobs: JOBS });
    const refunds = await db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND reason = 'job_refund'`, [tenant.account.id]);
    expect(refunds.rows[0].n).toBe(0);
    const balance = await apiCall(api.baseUrl, tenant.token, 'GET', '/v1/account');
    expect(balance.body.account.creditBalance).toBe(CREDITS - JOBS);

    // Every job's output is really there: the API signs a download URL for each.
    const sample = await apiCall(api.baseUrl, tenant.token, 'GET', `/v1/jobs/${runningAtKill[0]}`);
    expect(sample.body.job.state).toBe('completed');
    expect(sample.body.job.result.width).toBe(100);
  });
});
