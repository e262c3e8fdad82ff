import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { makeJpeg, serveFiles } from '../support/media-fixtures';
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
 * Fault 4 (issue 6): SIGTERM the API under load, then the worker while it runs jobs (a few slow
 * video conversions among quick image jobs). The API finishes what it had accepted — slow uploads
 * included — before it exits; the worker finishes or gives back its running jobs; a new worker
 * completes the rest, and no job is left `running`.
 */
jest.setTimeout(300_000);

const CREDITS = 100_000;
const VIDEOS = 4;
/** Requests sent at least this long before the SIGTERM were surely accepted by the server. */
const SURELY_ACCEPTED_MS = 500;

const run = promisify(execFile);

describe('fault: SIGTERM the API and the worker under load', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let dir: string;
  let db: Client;
  let env: Record<string, string>;
  let api: ApiProcess;
  let tenant: FaultTenant;
  let clip: Buffer;
  let slug: string;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-faults-term-'));
    // A 10 s 720p clip from ffmpeg's lavfi sources: a conversion takes seconds, not milliseconds.
    const clipPath = join(dir, 'clip.mp4');
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=10', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=10',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clipPath,
    ]);
    clip = await readFile(clipPath);
    database = await freshDatabase(faultDatabaseUrl('graceful_shutdown'));
    redis = await startPrivateRedis();
    files = await serveFiles({ 'photo.jpg': await makeJpeg(400, 300), 'clip.mp4': clip });
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: join(dir, 'storage'),
      SIGNING_SECRET: 'fault-tests-signing-secret',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      WORKER_IN_PROCESS: 'false',
      WORKER_LOCK_DURATION_MS: '4000',
      WORKER_STALLED_INTERVAL_MS: '2000',
    };
    db = new Client({ connectionString: database.url });
    await db.connect();
    let worker: ServiceProcess;
    [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
    workers.push(worker);
    tenant = await createTenant(database.url, { credits: CREDITS });
    slug = `term-${Date.now().toString(36)}`;
    expect((await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/drops', { name: 'Shutdown', slug })).status).toBe(201);
  });

  afterAll(async () => {
    await killAll();
    await db?.end().catch(() => undefined);
    await files?.close();
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

  it('in-flight requests finish; running jobs finish or go back; a new worker completes every job', async () => {
    // Load: a few slow video jobs, then clients mixing reads and image jobs until told to stop.
    const answers: RawAnswer[] = [];
    for (let i = 0; i < VIDEOS; i++) {
      const res = await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'video-convert', input: { url: files.url('clip.mp4') }, options: { format: 'mp4' } });
      expect(res.status).toBe(202);
      answers.push(res);
    }
    let loading = true;
    const client = async (n: number) => {
      for (let i = 0; loading; i++) {
        const pick = (i + n) % 3;
        const res =
          pick === 0
            ? await apiCall(api.baseUrl, tenant.token, 'GET', `/v1/drops/${slug}`)
            : pick === 1
              ? await apiCall(api.baseUrl, tenant.token, 'POST', '/v1/jobs', { tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 50 } })
              : await apiCall(api.baseUrl, tenant.token, 'GET', '/v1/account');
        answers.push(res);
        await sleep(20);
      }
    };
    const clients = [0, 1, 2].map(client);
    await sleep(1500);
    const uploads = [slowUpload(3), slowUpload(3), slowUpload(4)];
    await sleep(1500);

    // 1. SIGTERM the API: uploads are mid-body, the clients keep sending.
    const termAt = Date.now();
    const apiExit = await api.stop('SIGTERM', 60_000);
    const apiExitMs = Date.now() - termAt;
    loading = false;
    await Promise.all(clients);
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
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.body.id as string);

    // 2. SIGTERM the worker while it converts a video.
    await waitUntil(
      'a video job running',
      async () => (await db.query(`SELECT 1 FROM jobs WHERE account_id = $1 AND tool = 'video-convert' AND state = 'running'`, [tenant.account.id])).rowCount,
      120_000,
      100,
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
    expect(afterWorker.queued ?? 0).toBeGreaterThan(0); // it stopped with work left: the next worker's job

    // 3. A new worker completes everything.
    workers.push(await startWorker(env));
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
    const worker1Log = workers[0].tail(400);
    expect(worker1Log).not.toMatch(/"level":"error"|Unhandled|ECONNREFUSED/);
  });
});

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
