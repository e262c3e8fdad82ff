import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { type ClientRequest, createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { QUEUES, queuePrefix } from '../../src/queue/queue.module';
import { makeJpeg, makeVideo, serveFiles } from '../support/media-fixtures';
import { startPrivateRedis } from '../support/private-redis';
import {
  apiCall,
  type ApiProcess,
  createTenant,
  faultDatabaseUrl,
  type FaultTenant,
  freshDatabase,
  jobStates,
  killAll,
  ledgerProblems,
  type RawAnswer,
  rawRequest,
  type ServiceProcess,
  sleep,
  startApi,
  startWorker,
  waitUntil,
} from '../support/processes';

/**
 * Fault 4 (issue 6): a rolling restart under load. Two API processes share the traffic's work;
 * SIGTERM the first while clients hit it (slow uploads mid-body included): it finishes what it had
 * accepted before it exits. Then SIGTERM the worker just after it started a slow video job (its
 * input still downloading) while image jobs keep arriving through the second API: the running job
 * finishes or goes back to the queue, nothing is picked up half-shut, and a new worker completes
 * everything. No job is left `running`, none needed a second attempt.
 */
jest.setTimeout(300_000);

const CREDITS = 100_000;
const VIDEOS = 3;
/** Requests sent at least this long before the SIGTERM were surely accepted by the server. */
const SURELY_ACCEPTED_MS = 1000;
/** The video input server trickles the clip over this long, so a fetch is in flight for a while. */
const CLIP_TRICKLE_MS = 2000;

describe('fault: SIGTERM the API and the worker under load', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let slowFiles: Server;
  let slowClipUrl: string;
  let dir: string;
  let db: Client;
  let env: Record<string, string>;
  let api: ApiProcess;
  let api2: ApiProcess;
  let tenant: FaultTenant;
  let clip: Buffer;
  let slug: string;
  const workers: ServiceProcess[] = [];
  let stopped = false;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-faults-term-'));
    // A 10 s 720p clip from ffmpeg's lavfi sources: a conversion takes seconds, not milliseconds.
    const clipPath = join(dir, 'clip.mp4');
    await makeVideo(clipPath, 10, { size: '1280x720', source: 'testsrc2' });
    clip = await readFile(clipPath);
    files = await serveFiles({ 'photo.jpg': await makeJpeg(400, 300) });
    slowFiles = createServer((_req, res) => {
      res.setHeader('content-type', 'video/mp4');
      res.setHeader('content-length', clip.length);
      const step = Math.ceil(clip.length / 20);
      let offset = 0;
      const timer = setInterval(() => {
        if (res.destroyed || stopped) {
          clearInterval(timer);
          res.destroy();
          return;
        }
        res.write(clip.subarray(offset, offset + step));
        offset += step;
        if (offset >= clip.length) {
          clearInterval(timer);
          res.end();
        }
      }, CLIP_TRICKLE_MS / 20);
    });
    await new Promise<void>((resolve) => slowFiles.listen(0, '127.0.0.1', resolve));
    slowClipUrl = `http://127.0.0.1:${(slowFiles.address() as { port: number }).port}/clip.mp4`;

    database = await freshDatabase(faultDatabaseUrl('graceful_shutdown'));
    redis = await startPrivateRedis();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: join(dir, 'storage'),
      SIGNING_SECRET: 'fault-tests-signing-secret-0123456789',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WORKER_IN_PROCESS: 'false',
      WORKER_LOCK_DURATION_MS: '4000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      // This suite is about the drain: a video job running at SIGTERM finishes before the worker
      // exits, however slow the machine. (Default 10 s: a longer job is left to BullMQ's stall retry.)
      SHUTDOWN_TIMEOUT_S: '120',
    };
    db = new Client({ connectionString: database.url });
    await db.connect();
    let worker: ServiceProcess;
    [api, api2, worker] = await Promise.all([startApi(env), startApi(env), startWorker(env)]);
    workers.push(worker);
    tenant = await createTenant(database.url, { credits: CREDITS });
    slug = `term-${Date.now().toString(36)}`;
    expect((await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/drops', { name: 'Shutdown', slug })).status).toBe(201);
  });

  afterAll(async () => {
    stopped = true; // load loops left running by a failed assertion
    await killAll();
    await db?.end().catch(() => undefined);
    await files?.close();
    slowFiles?.closeAllConnections();
    await new Promise((r) => slowFiles?.close(r));
    redis?.stop();
    await database?.drop().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** POST /v1/uploads with the clip, its body trickled over ~`seconds` so it is in flight for that long. */
  const slowUpload = (seconds: number): Promise<RawAnswer> => {
    const boundary = `----dropline${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunks = Math.max(1, seconds * 10);
    const size = Math.ceil(clip.length / chunks);
    return rawRequest(`${api.baseUrl}/v1/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tenant.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + clip.length + tail.length),
      },
      timeoutMs: 60_000,
      body: (req: ClientRequest) => {
        void (async () => {
          req.write(head);
          for (let i = 0; i < clip.length; i += size) {
            if (req.destroyed) return;
            req.write(clip.subarray(i, i + size));
            await sleep(100);
          }
          req.end(tail);
        })();
      },
    });
  };

  const videoJob = (target: ApiProcess) =>
    apiCall(target.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'video-convert', input: { url: slowClipUrl }, options: { format: 'mp4' } });

  /** Clients mixing reads and image jobs against `target` until `loading()` turns false. */
  const load = (target: ApiProcess, answers: RawAnswer[], loading: () => boolean, clients = 3) =>
    Promise.all(
      Array.from({ length: clients }, async (_, n) => {
        for (let i = 0; loading() && !stopped; i++) {
          const pick = (i + n) % 3;
          const res =
            pick === 0
              ? await apiCall(target.baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`)
              : pick === 1
                ? await apiCall(target.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 50 } })
                : await apiCall(target.baseUrl, tenant.token, 'GET', '/v1/account');
          answers.push(res);
          await sleep(20);
        }
      }),
    );

  it('in-flight requests finish; running jobs finish or go back; a new worker completes every job', async () => {
    // 1. SIGTERM the first API under load, slow uploads mid-body.
    const answers: RawAnswer[] = [];
    for (let i = 0; i < VIDEOS; i++) answers.push(await videoJob(api));
    expect(answers.map((a) => a.status)).toEqual(Array(VIDEOS).fill(202));
    let loading = true;
    const clients = load(api, answers, () => loading);
    await sleep(1500);
    const uploads = [slowUpload(3), slowUpload(3), slowUpload(4)];
    await sleep(1500);

    const termAt = Date.now();
    const apiExit = await api.stop('SIGTERM', 60_000);
    const apiExitMs = Date.now() - termAt;
    loading = false;
    await clients;
    const uploaded = await Promise.all(uploads);
    console.log(
      `graceful-shutdown: API exited ${apiExitMs} ms after SIGTERM (${JSON.stringify(apiExit)}); uploads ${uploaded.map((u) => `${u.status ?? u.error} in ${u.ms} ms`).join(', ')}; ` +
        `${answers.length} requests: ${summarize(answers, termAt)}`,
    );
    expect(apiExit.forced).toBe(false);
    expect(apiExit.code === 0 || apiExit.signal === 'SIGTERM').toBe(true);
    for (const u of uploaded) {
      expect(u.status).toBe(201);
      expect(u.body.upload.fileSize).toBe(clip.length);
    }
    // Sent well before the signal: answered, successfully. Sent around or after it: a clean refusal at most.
    const early = answers.filter((a) => a.startedAt < termAt - SURELY_ACCEPTED_MS);
    expect(early.filter((a) => a.status === null || a.status >= 300).map(show)).toEqual([]);
    const late = answers.filter((a) => a.startedAt >= termAt - SURELY_ACCEPTED_MS);
    expect(late.filter((a) => !(a.status === null ? a.error === 'ECONNREFUSED' || a.error === 'ECONNRESET' : a.status < 300 || a.status === 503)).map(show)).toEqual([]);

    // 2. The traffic moves to the second API; SIGTERM the worker just after it started a video
    //    (its input still downloading) while image jobs keep arriving.
    const answers2: RawAnswer[] = [];
    for (let i = 0; i < 2; i++) answers2.push(await videoJob(api2));
    let loading2 = true;
    const clients2 = load(api2, answers2, () => loading2, 2);
    await waitUntil(
      'a video job just started',
      async () =>
        (
          await db.query(`SELECT 1 FROM jobs WHERE account_id = $1 AND tool = 'video-convert' AND state = 'running' AND started_at > now() - interval '500 milliseconds'`, [
            tenant.account.id,
          ])
        ).rowCount,
      180_000,
      50,
    );
    const runningAtTerm = (await db.query(`SELECT id FROM jobs WHERE account_id = $1 AND state = 'running'`, [tenant.account.id])).rows.map((r) => r.id);
    const workerTermAt = Date.now();
    const workerExit = await workers[0].stop('SIGTERM', 90_000);
    const afterWorker = await jobStates(db, tenant.account.id);
    const ofRunning = (await db.query(`SELECT id, state FROM jobs WHERE id = ANY($1)`, [runningAtTerm])).rows;
    console.log(
      `graceful-shutdown: worker exited ${Date.now() - workerTermAt} ms after SIGTERM (${JSON.stringify(workerExit)}); ` +
        `jobs running at the signal: ${ofRunning.map((r) => `${r.id} → ${r.state}`).join(', ')}; states after: ${JSON.stringify(afterWorker)}`,
    );
    expect(workerExit.forced).toBe(false);
    expect(workerExit.code === 0 || workerExit.signal === 'SIGTERM').toBe(true);
    // "Finish or return to the queue": nothing the worker held is left running behind it.
    expect(afterWorker.running ?? 0).toBe(0);
    expect(ofRunning.every((r) => r.state === 'completed' || r.state === 'queued')).toBe(true);
    // A worker told to stop takes no new job (it would only fail it for want of what is closing).
    const startedWhileStopping = await db.query(`SELECT id, state FROM jobs WHERE account_id = $1 AND started_at > to_timestamp($2 / 1000.0)`, [
      tenant.account.id,
      workerTermAt + 500,
    ]);
    expect(startedWhileStopping.rows).toEqual([]);

    // 3. A new worker completes everything, each job in one attempt.
    workers.push(await startWorker(env));
    await sleep(1000);
    loading2 = false;
    await clients2;
    expect(answers2.filter((a) => a.status !== 200 && a.status !== 202).map(show)).toEqual([]);
    const accepted = [...answers, ...answers2].filter((a) => a.status === 202).map((a) => a.body.id as string);
    const final = await waitUntil(
      'every accepted job to be final',
      async () => {
        const s = await jobStates(db, tenant.account.id);
        return (s.queued ?? 0) + (s.running ?? 0) === 0 ? s : undefined;
      },
      180_000,
      500,
    );
    console.log(`graceful-shutdown: final ${JSON.stringify(final)}`);
    expect(final).toEqual({ completed: accepted.length });
    expect(await ledgerProblems(db, tenant.account.id, CREDITS)).toEqual([]);
    const retried = await attemptsOver1(redis.url, database.url, accepted);
    expect(retried).toEqual([]);
    expect(workers[0].tail(400)).not.toMatch(/"level":"(error|warn)"|Unhandled/);
  });
});

/** Jobs BullMQ needed more than one attempt for (a shutdown must not cost a job an attempt). */
async function attemptsOver1(redisUrl: string, databaseUrl: string, ids: string[]): Promise<string[]> {
  const queues = [QUEUES.image, QUEUES.video].map((name) => new Queue(name, { connection: { url: redisUrl }, prefix: queuePrefix(databaseUrl) }));
  try {
    const out: string[] = [];
    let found = 0;
    for (const id of ids) {
      for (const q of queues) {
        const job = await q.getJob(id);
        if (job) found++;
        if (job && job.attemptsMade !== 1) out.push(`${id}: ${job.attemptsMade} attempts (${job.failedReason ?? ''})`);
      }
    }
    if (found !== ids.length) out.push(`only ${found} of ${ids.length} jobs found in the queues`);
    return out;
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }
}

function show(a: RawAnswer): string {
  return `${a.status ?? a.error} ${a.body?.error?.code ?? ''} (started ${a.startedAt}, ${a.ms} ms)`;
}

function summarize(answers: RawAnswer[], termAt: number): string {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = `${a.startedAt < termAt ? 'before' : 'after'}:${a.status ?? a.error}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return JSON.stringify(counts);
}
