import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Job, JobAccepted } from '../../../generated/types';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { countingServer, type CountingServer, waitForJob } from '../../support/jobs';
import { makeVideo, probe } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

const ROOT = join(__dirname, '..', '..', '..');
/** Short BullMQ timings for the worker processes, so a killed worker's job is picked up in seconds. */
const LOCK_DURATION_MS = 3000;
const STALLED_INTERVAL_MS = 1000;

/**
 * Killing a worker in the middle of a job does not lose the job (issue 4, "Done when"): the API
 * runs without a worker, real worker processes (`src/main-worker.ts`) run the queues, and one is
 * killed with SIGKILL while ffmpeg is transcoding. BullMQ's stalled check hands the job to the
 * next worker; it completes, and the account is charged exactly once.
 */
describe('a worker killed mid-job', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: CountingServer;
  let db: Client;
  const signingSecret = randomBytes(24).toString('hex');
  const workers: { child: ChildProcess; output: string[] }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-crash-'));
    await mkdir(join(dir, 'tmp'));
    // 20 s of noisy 640×480: ffmpeg needs several seconds for it, long enough to be killed mid-way.
    await makeVideo(join(dir, 'long.mp4'), 20, { size: '640x480', rate: 30, source: 'testsrc2', filter: 'noise=alls=30:allf=t+u', extra: ['-crf', '30'] });
    const video = await readFile(join(dir, 'long.mp4'));
    files = await countingServer('127.0.0.1', (req, res) => {
      if (req.url !== '/long.mp4') {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-length', video.length);
      res.end(video);
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'false', STORAGE_DIR: join(dir, 'files'), SIGNING_SECRET: signingSecret });
    tenant = await t.newTenant({ credits: 100 });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });

  async function stopWorkers(): Promise<void> {
    for (const w of workers) killGroup(w.child, 'SIGKILL');
    await Promise.all(workers.map((w) => exited(w.child)));
  }

  afterEach(stopWorkers); // each test starts its own workers

  afterAll(async () => {
    await stopWorkers();
    await t?.close();
    await files?.close();
    await db?.end();
    await rm(dir, { recursive: true, force: true });
  });

  /** `node -r @swc-node/register src/main-worker.ts`, in a process group of its own (it and its ffmpeg). */
  function startWorker(): ChildProcess {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main-worker.ts'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: TEST_DATABASE_URL,
        REDIS_URL: TEST_REDIS_URL,
        ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        STORAGE_DIR: join(dir, 'files'),
        SIGNING_SECRET: signingSecret,
        LOG_LEVEL: 'warn',
        QUEUE_PREFIX: t.queuePrefix,
        WORKER_LOCK_DURATION_MS: String(LOCK_DURATION_MS),
        WORKER_STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
        TMPDIR: join(dir, 'tmp'), // the killed worker's temp files stay in here
      },
    });
    const output: string[] = [];
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    workers.push({ child, output });
    return child;
  }

  function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    try {
      process.kill(-child.pid, signal); // the worker and its ffmpeg: what a crashed container loses
    } catch {
      // already gone
    }
  }

  function exited(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once('exit', () => resolve()));
  }

  async function getJob(id: string): Promise<Job> {
    return (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job;
  }

  it('the job is retried by another worker and completes, charged exactly once', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const first = startWorker();
    const { response, data } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'video-convert', input: { url: `${files.origin}/long.mp4` }, options: { format: 'mp4', quality: 'low' } },
    });
    expect(response.status).toBe(202);
    const id = (data as JobAccepted).id;

    try {
      const running = await waitForJob(tenant.client, id, 60_000, (j) => j.state === 'running' && j.progress > 0);
      expect(running.progress).toBeLessThan(90);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${workers[0].output.join('')}`, { cause: err });
    }

    killGroup(first, 'SIGKILL');
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    // Nobody else is working on it: it is still `running`, its progress frozen.
    const frozen = await getJob(id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await getJob(id)).toMatchObject({ state: 'running', progress: frozen.progress });

    startWorker();
    let done: Job;
    try {
      done = await waitForJob(tenant.client, id, 90_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${workers.map((w) => w.output.join('')).join('\n---\n')}`, { cause: err });
    }
    expect(done).toMatchObject({ state: 'completed', progress: 100, error: null, result: { outputFormat: 'mp4', width: 640, height: 480 } });
    expect(done.result!.duration).toBeGreaterThan(19);

    // The output is whole: written by the second run, downloadable from the API, decodable.
    const out = join(dir, 'out.mp4');
    await writeFile(out, Buffer.from(await (await contractFetch(done.result!.downloadUrl!)).arrayBuffer()));
    const info = await probe(out);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 640, height: 480 });
    expect(info.duration).toBeGreaterThan(19);

    // Charged once: one debit, no refund, in the ledger and in the balance.
    const { rows } = await db.query('SELECT reason, delta FROM credit_ledger WHERE job_id = $1 ORDER BY id', [id]);
    expect(rows).toEqual([{ reason: 'job_debit', delta: -5 }]);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before - 5);
    expect(files.hits).toBe(2); // the input was fetched once per run
  }, 180_000);

  it('a job whose workers keep dying is failed and refunded, not left running', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'video-convert', input: { url: `${files.origin}/long.mp4` }, options: { format: 'mp4', quality: 'low' } },
    });
    const id = (data as JobAccepted).id;
    const hitsBefore = files.hits;
    // maxStalledCount is 1: a job that stalled its worker twice (a poison input) is not run a third time.
    for (let kill = 1; kill <= 2; kill++) {
      const hits = files.hits;
      const worker = startWorker();
      // This worker holds the job once it has fetched the input (the row stays `running` between runs).
      const deadline = Date.now() + 60_000;
      while (files.hits === hits) {
        if (Date.now() > deadline) throw new Error(`run ${kill} never started:\n${workers.at(-1)!.output.join('')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(await getJob(id)).toMatchObject({ state: 'running' });
      killGroup(worker, 'SIGKILL');
      await exited(worker);
    }
    startWorker();
    const failed = await waitForJob(tenant.client, id, 60_000);
    expect(failed).toMatchObject({ state: 'failed', result: null, error: { code: 'processing_failed', message: 'the worker stopped while processing this input' } });
    expect(files.hits).toBe(hitsBefore + 2); // two runs, no third
    expect(failed.finishedAt).not.toBeNull();
    const { rows } = await db.query('SELECT reason, delta FROM credit_ledger WHERE job_id = $1 ORDER BY id', [id]);
    expect(rows).toEqual([
      { reason: 'job_debit', delta: -5 },
      { reason: 'job_refund', delta: 5 },
    ]);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
  }, 240_000);
});
