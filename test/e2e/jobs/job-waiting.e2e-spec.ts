import { createJobAndWait } from '@dropline/client';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { AUTH_CHANNEL } from '../../../src/auth/api-key-cache';
import { LISTEN_APPLICATION_NAME, ListenClient } from '../../../src/database/listen-client';
import { DROPS_CHANNEL } from '../../../src/drops/drop-cache';
import { JOB_ENDED_CHANNEL } from '../../../src/jobs/job-waits';
import { contractFetch } from '../../support/contract-check';
import { countingServer, type CountingServer } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { killAll, rawRequest, type ServiceProcess, startWorker } from '../../support/processes';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { checkedClient, startTestApp, type Tenant, type TestApp } from '../../support/test-app';

jest.setTimeout(180_000);

/**
 * Issue 20 item 3: `Prefer: wait=N` on POST /v1/jobs and GET /v1/jobs/{id}. The API runs here
 * (WORKER_IN_PROCESS=false) and the worker in a process of its own, so every job's end reaches
 * the waiting request through Postgres NOTIFY, across processes, as in production.
 */
/** A job without its download URLs, which are signed afresh at each read (their expiry moves on). */
function unsigned(job: Job): unknown {
  if (!job.result) return job;
  const outputs = Object.fromEntries(Object.entries(job.result.outputs).map(([name, out]) => [name, { ...out, downloadUrl: null }]));
  return { ...job, result: { ...job.result, downloadUrl: null, outputs } };
}

describe('Prefer: wait — waiting for a job instead of polling', () => {
  let t: TestApp;
  let tenant: Tenant;
  let worker: ServiceProcess;
  let files: CountingServer;
  let dir: string;
  let image: Buffer;
  /** Requests for /held-*.png wait here until the test releases them: their job stays running. */
  const held = new Map<string, () => void>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-waiting-'));
    image = await makePng(640, 480);
    files = await countingServer('127.0.0.1', (req, res) => {
      const send = () => res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(image.length) }).end(image);
      if (req.url === '/missing.png') res.writeHead(404).end();
      else if (req.url?.startsWith('/held-')) held.set(req.url, send);
      else send();
    });
    const env = { ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') };
    t = await startTestApp({ ...env, WORKER_IN_PROCESS: 'false' });
    worker = await startWorker({
      ...env,
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: t.queuePrefix,
      ...(t.config.SIGNING_SECRET ? { SIGNING_SECRET: t.config.SIGNING_SECRET } : {}),
    });
    tenant = await t.newTenant({ plan: 'max', credits: 1000 });
  });
  afterAll(async () => {
    for (const release of held.values()) release();
    await t?.close();
    await killAll();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The API process's `dropline_job_waiters`, scraped from its /metrics. */
  async function waiters(): Promise<number> {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    return Number(/^dropline_job_waiters (\d+)/m.exec(text)?.[1] ?? NaN);
  }

  async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`still waiting for ${what}\nworker:\n${worker.tail()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A job whose input the fixture server holds until `release()`: it stays in flight meanwhile. */
  async function heldJob(): Promise<{ id: string; release(): Promise<void> }> {
    const path = `/held-${randomUUID()}.png`;
    const { data, response } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: `${files.origin}${path}` }, options: { width: 100 } } });
    expect(response.status).toBe(202);
    const { id } = data as JobAccepted;
    await until(() => held.has(path), `the worker to fetch ${path}`);
    return {
      id,
      release: async () => {
        held.get(path)!();
        held.delete(path);
      },
    };
  }

  it('POST with Prefer: wait=10: a small image job answers 200 with the completed job and its output, in one round trip', async () => {
    const started = Date.now();
    const { data, response } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: `${files.origin}/photo.png` }, options: { width: 320 } },
      headers: { Prefer: 'wait=10' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=10');
    expect(Date.now() - started).toBeLessThan(10_000);
    const { job } = data as { job: Job };
    expect(job).toMatchObject({ id: expect.stringMatching(/^job_/), state: 'completed', progress: 100, result: { status: 'converted', width: 320, height: 240 } });
    expect(response.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    // The very body GET /v1/jobs/{id} gives (its download URL signed afresh each time).
    const polled = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
    expect(unsigned(polled.data!.job)).toEqual(unsigned(job));
    expect(polled.response.headers.get('preference-applied')).toBeNull();
    const output = Buffer.from(await (await contractFetch(job.result!.downloadUrl!)).arrayBuffer());
    expect(await sharp(output).metadata()).toMatchObject({ width: 320, height: 240 });
    expect(await waiters()).toBe(0);
  });

  it('the /api/v1 aliases wait the same way', async () => {
    const posted = await tenant.client.POST('/api/v1/jobs', {
      body: { tool: 'image-resize', input: { url: `${files.origin}/photo.png` }, options: { width: 16 } },
      headers: { Prefer: 'wait=10' },
    });
    expect(posted.response.status).toBe(200);
    expect(posted.response.headers.get('preference-applied')).toBe('wait=10');
    const { job } = posted.data as { job: Job };
    expect(job).toMatchObject({ state: 'completed', result: { width: 16 } });
    const got = await tenant.client.GET('/api/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: 'wait=5' } });
    expect(got.response.status).toBe(200);
    expect(got.response.headers.get('preference-applied')).toBe('wait=5');
    expect(got.data!.job).toMatchObject({ id: job.id, state: 'completed' });
  });

  it('GET with Prefer: wait on a running job answers as soon as it completes (the worker is another process)', async () => {
    const job = await heldJob();
    const answer = tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: 'wait=30' } });
    await until(async () => (await waiters()) === 1, 'the GET to wait');
    const released = Date.now();
    await job.release();
    const { data, response } = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=30');
    expect(data!.job).toMatchObject({ id: job.id, state: 'completed', result: { width: 100, downloadUrl: expect.any(String) } });
    expect(Date.now() - released).toBeLessThan(10_000);
    expect(await waiters()).toBe(0);
  });

  it('the wait times out after about N seconds: GET 200 and POST 202 with the job still in flight', async () => {
    const job = await heldJob();
    let started = Date.now();
    const got = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: 'wait=1' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(got.response.status).toBe(200);
    expect(got.response.headers.get('preference-applied')).toBe('wait=1');
    expect(got.data!.job).toMatchObject({ id: job.id, state: 'running' });

    const path = `/held-${randomUUID()}.png`;
    started = Date.now();
    const posted = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: `${files.origin}${path}` }, options: { width: 50 } },
      headers: { Prefer: 'wait=2' },
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1950);
    expect(elapsed).toBeLessThan(10_000);
    expect(posted.response.status).toBe(202);
    expect(posted.response.headers.get('preference-applied')).toBe('wait=2');
    const accepted = posted.data as JobAccepted;
    expect(accepted).toEqual({ id: expect.stringMatching(/^job_/), state: 'queued', statusUrl: `/v1/jobs/${accepted.id}` });
    await job.release();
    await until(() => held.has(path), 'the second job to start');
    held.get(path)!();
    held.delete(path);
    expect(await waiters()).toBe(0);
  });

  it('a client that hangs up stops waiting: its waiter is gone at once, long before N seconds', async () => {
    const job = await heldJob();
    const req = request(`${t.baseUrl}/v1/jobs/${job.id}`, { headers: { authorization: `Bearer ${tenant.token}`, prefer: 'wait=60' }, agent: false });
    req.on('error', () => undefined);
    req.end();
    await until(async () => (await waiters()) === 1, 'the GET to wait');
    const hungUp = Date.now();
    req.destroy();
    await until(async () => (await waiters()) === 0, 'the waiter to go');
    expect(Date.now() - hungUp).toBeLessThan(5_000);
    await job.release();
  });

  it('an end during a loss of the listening connection is not missed: on reconnect every waiter reads again', async () => {
    const job = await heldJob();
    const answer = tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: 'wait=30' } });
    await until(async () => (await waiters()) === 1, 'the GET to wait');
    const db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    try {
      // The listener is cut (this waits for its backend to exit), then the job ends while nobody listens.
      const { rows } = await db.query(
        "SELECT pg_terminate_backend(pid, 5000) AS gone FROM pg_stat_activity WHERE application_name = 'dropline-listen' AND datname = current_database()",
      );
      expect(rows.length).toBeGreaterThanOrEqual(1);
      const cut = Date.now();
      await db.query("UPDATE jobs SET state = 'failed', error_code = 'processing_failed', error_message = 'ended in the gap', finished_at = now() WHERE id = $1", [job.id]);
      const { data, response } = await answer;
      expect(response.status).toBe(200);
      expect(data!.job).toMatchObject({ id: job.id, state: 'failed' });
      expect(Date.now() - cut).toBeLessThan(15_000);
    } finally {
      await db.end();
      await job.release();
    }
  });

  it('one LISTEN connection serves the key cache, the drop cache and the waits', async () => {
    const job = await heldJob();
    const answer = tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: 'wait=30' } });
    await until(async () => (await waiters()) === 1, 'the GET to wait');
    const listen = t.app.get(ListenClient);
    await until(() => [DROPS_CHANNEL, JOB_ENDED_CHANNEL].every((channel) => listen.isListening(channel)), 'the drop and job channels listened on');
    const db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    try {
      // Every process of this test run, whichever spec started it, names its listening connection alike.
      const { rows } = await db.query("SELECT DISTINCT application_name AS name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'dropline-%'");
      expect(rows).toEqual([{ name: LISTEN_APPLICATION_NAME }]);
      expect(listen.isListening(AUTH_CHANNEL)).toBe(true);
    } finally {
      await db.end();
      await job.release();
      await answer;
    }
  });

  it('an out-of-range or malformed Prefer is ignored (RFC 7240): answered at once, no Preference-Applied', async () => {
    const job = await heldJob();
    for (const prefer of ['wait=0', 'wait=61', 'wait=soon', 'wait=1.5', 'respond-async']) {
      const started = Date.now();
      const got = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } }, headers: { Prefer: prefer } });
      expect(got.response.status).toBe(200);
      expect(got.response.headers.get('preference-applied')).toBeNull();
      expect(Date.now() - started).toBeLessThan(900);
    }
    const posted = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: `${files.origin}/photo.png` }, options: { width: 10 } },
      headers: { Prefer: 'wait=120' },
    });
    expect(posted.response.status).toBe(202);
    expect(posted.response.headers.get('preference-applied')).toBeNull();
    await job.release();
  });

  it('an idempotent replay with Prefer: wait waits on the original job: 200 with it, no second job; without the header, the original 202', async () => {
    const key = randomUUID();
    const body = { tool: 'image-resize' as const, input: { url: `${files.origin}/photo.png` }, options: { width: 64 } };
    const first = await tenant.client.POST('/v1/jobs', { body, headers: { Prefer: 'wait=10', 'Idempotency-Key': key } });
    expect(first.response.status).toBe(200);
    const { job } = first.data as { job: Job };
    const again = await tenant.client.POST('/v1/jobs', { body, headers: { Prefer: 'wait=10', 'Idempotency-Key': key } });
    expect(again.response.status).toBe(200);
    expect((again.data as { job: Job }).job).toMatchObject({ id: job.id, state: 'completed' });
    const plain = await tenant.client.POST('/v1/jobs', { body, headers: { 'Idempotency-Key': key } });
    expect(plain.response.status).toBe(202);
    expect(plain.data).toEqual({ id: job.id, state: 'queued', statusUrl: `/v1/jobs/${job.id}` });
  });

  it("a waited GET of an unknown job, or of another account's, is 404 at once; a failed job ends the wait too", async () => {
    const missing = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: 'job_nosuchjob000' } }, headers: { Prefer: 'wait=30' } });
    expect(missing.response.status).toBe(404);
    const failed = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: `${files.origin}/missing.png` }, options: { width: 10 } },
      headers: { Prefer: 'wait=30' },
    });
    expect(failed.response.status).toBe(200);
    expect((failed.data as { job: Job }).job).toMatchObject({ state: 'failed', refunded: true, error: { code: expect.any(String) } });
    // Another account's key waiting on this job: 404 at once, as a plain GET (the job is found by the key).
    const stranger = await t.newTenant();
    const started = Date.now();
    const foreign = await stranger.client.GET('/v1/jobs/{id}', { params: { path: { id: (failed.data as { job: Job }).job.id } }, headers: { Prefer: 'wait=30' } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error).toMatchObject({ error: { code: 'not_found' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await waiters()).toBe(0);
  });

  it('createJobAndWait (client package): one POST when the job ends in time; long polls when it does not', async () => {
    let requests = 0;
    const counting = checkedClient({
      baseUrl: t.baseUrl,
      token: tenant.token,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const done = await createJobAndWait(counting, { tool: 'image-convert', input: { url: `${files.origin}/photo.png` }, options: { format: 'webp' } }, { waitSeconds: 10 });
    expect(done).toMatchObject({ state: 'completed', result: { outputFormat: 'webp' } });
    expect(requests).toBe(1);

    // Held past its POST's wait: the client goes on with waited GETs, not a poll every few hundred ms.
    requests = 0;
    const path = `/held-${randomUUID()}.png`;
    const waiting = createJobAndWait(counting, { tool: 'image-resize', input: { url: `${files.origin}${path}` }, options: { width: 20 } }, { waitSeconds: 1 });
    await until(() => held.has(path), 'the job to start');
    await until(() => requests >= 3, 'two waited GETs');
    held.get(path)!();
    held.delete(path);
    const late = await waiting;
    expect(late).toMatchObject({ state: 'completed', result: { width: 20 } });
    expect(requests).toBeLessThanOrEqual(8);
  });
});

/** A wait longer than the server's socket idle timeout (UPLOAD_IDLE_TIMEOUT_S) is not cut by it. */
describe('Prefer: wait and the idle-socket timeout', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No worker: the job stays queued.
    t = await startTestApp({ UPLOAD_IDLE_TIMEOUT_S: '1', ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('a 3 s wait on a 1 s idle timeout answers 200 with the queued job', async () => {
    const tenant = await t.newTenant();
    const accepted = await rawRequest(`${t.baseUrl}/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'image-resize', input: { url: 'http://127.0.0.1:9/never.png' }, options: { width: 10 } }),
    });
    expect(accepted.status).toBe(202);
    const waited = await rawRequest(`${t.baseUrl}/v1/jobs/${accepted.body.id}`, { headers: { authorization: `Bearer ${tenant.token}`, prefer: 'wait=3' } });
    expect(waited.status).toBe(200);
    expect(waited.ms).toBeGreaterThanOrEqual(2950);
    expect(waited.body.job).toMatchObject({ id: accepted.body.id, state: 'queued' });
  });
});
