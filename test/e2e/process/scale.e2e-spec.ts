import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { fetch } from 'undici';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { form, postForm } from '../../support/intake';
import { makeJpeg } from '../../support/media-fixtures';
import { deleteRedisKeys, freePort } from '../../support/test-app';
import { apiCall, type ApiProcess, createTenant, killAll, ledgerProblems, type ServiceProcess, startApi, startWorker, waitUntil } from '../../support/processes';
import { s3StorageEnv, startS3rver, type S3rverServer } from '../../support/s3rver';

jest.setTimeout(600_000);

const JOBS = 12;

/**
 * Issue 12 item 9, README "Running at scale": two API processes and two `start:worker` processes
 * sharing one Postgres, Redis (QUEUE_PREFIX) and S3 store (s3rver), configured as the README says.
 */
describe('two API processes and two workers', () => {
  let s3: S3rverServer;
  let s3Dir: string;
  let apis: ApiProcess[] = [];
  let workers: ServiceProcess[] = [];
  let db: Client;
  let metricsPort: number;
  const queuePrefix = `bull:test-scale-${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'dropline-scale-s3-'));
    let endpoint: string;
    ({ server: s3, endpoint } = await startS3rver(s3Dir, ['scale']));
    // The settings every process shares (README "Running at scale").
    const shared = {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      SIGNING_SECRET: 'scale-test-signing-secret-0123456789abcdef',
      ...s3StorageEnv(endpoint, 'scale'),
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WORKER_IN_PROCESS: 'false',
      // A killed worker's job is handed on after seconds, not the default 30 s.
      WORKER_LOCK_DURATION_MS: '3000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      IMAGE_WORKER_CONCURRENCY: '1',
    };
    apis = await Promise.all([startApi(shared, { timeoutMs: 240_000 }), startApi(shared, { timeoutMs: 240_000 })]);
    metricsPort = await freePort();
    workers = await Promise.all([startWorker(shared, 240_000), startWorker({ ...shared, HOST: '127.0.0.1', WORKER_METRICS_PORT: String(metricsPort) }, 240_000)]);
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await killAll();
    await db?.end();
    await deleteRedisKeys(TEST_REDIS_URL, `${queuePrefix}:*`);
    await s3?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  });

  /** The ids of the jobs a worker's log says it started. */
  const startedBy = (w: ServiceProcess): Set<string> =>
    new Set(
      readFileSync(w.logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"Job started"'))
        .map((l) => (JSON.parse(l) as { jobId: string }).jobId),
    );
  const finishedBy = (w: ServiceProcess): Set<string> =>
    new Set(
      readFileSync(w.logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"Job completed"'))
        .map((l) => (JSON.parse(l) as { jobId: string }).jobId),
    );

  it('a file sent through one API is downloaded through the other; both workers take jobs; a SIGKILLed worker loses none', async () => {
    const [a, b] = apis;
    const tenant = await createTenant(TEST_DATABASE_URL, { plan: 'bench', credits: 100 });
    const owner = (api: ApiProcess, method: string, path: string, body?: unknown) => apiCall(api.baseUrl, tenant.token, method, path, body);

    // A drop submission through API a, its signed download link asked from API b.
    const drop = await owner(a, 'POST', '/v1/drops', { name: 'Scale', slug: `scale-${Math.random().toString(36).slice(2, 10)}` });
    expect(drop.status).toBe(201);
    const photo = await makeJpeg(1600, 1200);
    const sent = await postForm(`${a.baseUrl}/v1/public/drops/${drop.body.drop.slug}/submissions`, {
      method: 'POST',
      body: form({}, { data: photo, name: 'p.jpg', type: 'image/jpeg' }),
    });
    expect(sent.status).toBe(201);
    const submissionId = (sent.body as { submission: { id: string } }).submission.id;
    const link = await owner(b, 'GET', `/v1/drops/${drop.body.drop.slug}/submissions/${submissionId}/download`);
    expect(link.status).toBe(200);
    const downloaded = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
    expect(downloaded.equals(photo)).toBe(true);

    // An upload through API b, used by jobs submitted through both APIs.
    const upload = await postForm(`${b.baseUrl}/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: form({}, { data: photo, name: 'p.jpg', type: 'image/jpeg' }),
    });
    expect(upload.status).toBe(201);
    const fileId = (upload.body as { upload: { id: string } }).upload.id;
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const res = await owner(apis[i % 2], 'POST', '/v1/jobs', { tool: 'image-convert', input: { fileId }, options: { format: 'avif' } });
      expect(res.status).toBe(202);
      ids.push(res.body.id);
    }

    // Both workers take jobs; the first is killed while it holds one it has not finished.
    const [first, second] = workers;
    await waitUntil('both workers to start jobs', () => startedBy(first).size > 0 && startedBy(second).size > 0, 300_000);
    const held = await waitUntil('a job the first worker holds', () => [...startedBy(first)].find((id) => !finishedBy(first).has(id)), 300_000, 20);
    await first.stop('SIGKILL');
    const heldState = (await db.query('SELECT state FROM jobs WHERE id = $1', [held])).rows[0].state as string;

    const states = async () => (await db.query('SELECT id, state FROM jobs WHERE id = ANY($1)', [ids])).rows as { id: string; state: string }[];
    await waitUntil('every job to finish', async () => (await states()).every((r) => ['completed', 'failed'].includes(r.state)), 300_000, 500);
    expect((await states()).filter((r) => r.state !== 'completed')).toEqual([]);
    // Every job was run by a worker named in the logs, and a job cut off by the kill was finished by the survivor.
    const survivorRan = startedBy(second);
    for (const id of ids) expect(startedBy(first).has(id) || survivorRan.has(id)).toBe(true);
    if (heldState === 'running') expect(finishedBy(second).has(held)).toBe(true);
    expect(await ledgerProblems(db, tenant.account.id, 100)).toEqual([]);
    // The survivor's own /metrics (WORKER_METRICS_PORT) counts the jobs it completed.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain(`dropline_jobs_total{tool="image-convert",state="completed"} ${finishedBy(second).size}`);

    // Each result downloads through either API.
    for (const [i, id] of ids.entries()) {
      const job = await owner(apis[(i + 1) % 2], 'GET', `/v1/jobs/${id}`);
      expect(job.body.job).toMatchObject({ state: 'completed', result: { outputFormat: 'avif' } });
    }
    const result = await owner(a, 'GET', `/v1/jobs/${ids[0]}`);
    expect((await fetch(result.body.job.result.downloadUrl)).status).toBe(200);
  });
});
