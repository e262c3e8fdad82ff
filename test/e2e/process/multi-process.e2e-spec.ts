import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { countingServer, type CountingServer } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { apiCall, type ApiProcess, createTenant, type FaultTenant, killAll, type ServiceProcess, startApi, startWorker, waitUntil } from '../../support/processes';
import { tus, tusCreate, tusPatch } from '../../support/tus';

jest.setTimeout(300_000);

const MiB = 1024 * 1024;
const run = promisify(execFile);

/** A request whose body is sent in pieces by the test: headers and the first bytes now, the rest (or nothing) later. */
interface OpenRequest {
  req: ClientRequest;
  answer: Promise<{ status: number | null; body: string }>;
}

function openRequest(url: string, method: string, headers: Record<string, string | number>, first: Buffer): OpenRequest {
  let req!: ClientRequest;
  const answer = new Promise<{ status: number | null; body: string }>((resolve) => {
    req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: res.statusCode ?? null, body: '' }));
    });
    req.on('error', () => resolve({ status: null, body: '' }));
  });
  req.write(first);
  return { req, answer };
}

/**
 * Issue 21 item 4, several processes and one truth: two API processes and two workers on one
 * Postgres and one Redis (as docker-compose.yml runs them). A tus upload moves between the API
 * processes, a stalled PATCH on one never writes after the upload was resumed on the other, the
 * per-address upload cap and rate limit count both processes' requests (tus creations included),
 * a revoked key is refused by both at once, one idempotency key sent to both makes one job, and a
 * job queued through one and canceled through the other is never run by either worker.
 */
describe('two API processes and two workers, one truth', () => {
  let apis: ApiProcess[];
  let workers: ServiceProcess[];
  let storageDir: string;
  let redis: Redis;
  let db: Client;
  let tenant: FaultTenant;
  let files: CountingServer;
  /** Sockets of the input server's requests, to stall them and to see the worker hang up. */
  const inputSockets = new Set<import('node:net').Socket>();
  let image: Buffer;
  let neverFetched = 0;
  const queuePrefix = `bull:test-multi-${Math.random().toString(36).slice(2, 8)}`;
  const CAP = 2;
  const IP_LIMIT = 1000;

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-multi-'));
    image = await makePng(64, 48);
    files = await countingServer('127.0.0.1', (req, res) => {
      if (req.url === '/never.png') neverFetched++;
      if (req.url === '/stall.png' && inputSockets.size < 2) {
        // Headers and a first chunk, then nothing: the worker stays busy fetching it (the first two times).
        inputSockets.add(req.socket);
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * MiB) });
        res.write(image);
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    });
    const env = {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORAGE_DIR: storageDir,
      WORKER_IN_PROCESS: 'false',
      QUEUE_PREFIX: queuePrefix,
      SIGNING_SECRET: 'multi-process-test-signing-secret-0123456789',
      PUBLIC_UPLOADS_PER_IP: String(CAP),
      PUBLIC_RATE_LIMIT: String(IP_LIMIT),
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      IMAGE_WORKER_CONCURRENCY: '1',
    };
    [apis, workers] = await Promise.all([
      Promise.all([startApi(env, { timeoutMs: 120_000 }), startApi(env, { timeoutMs: 120_000 })]),
      Promise.all([startWorker(env, 120_000), startWorker(env, 120_000)]),
    ]);
    redis = new Redis(TEST_REDIS_URL);
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    tenant = await createTenant(TEST_DATABASE_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await db?.end();
    await files?.close();
    await killAll();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  const [A, B] = [0, 1];
  const base = (i: number) => apis[i].baseUrl;

  async function createDrop(): Promise<string> {
    const slug = `multi-${randomUUID().slice(0, 8)}`;
    const res = await apiCall(base(A), tenant.token, 'POST', '/v1/drops', { name: 'Two processes', slug });
    expect(res.status).toBe(201);
    return slug;
  }
  const collection = (i: number, slug: string) => `${base(i)}/v1/public/drops/${slug}/tus`;
  const on = (i: number, location: string) => location.replace(/^http:\/\/127\.0\.0\.1:\d+/, base(i));
  const tusFile = (id: string) => join(storageDir, '.tus', id);
  /** Where the local storage driver keeps a key (local-storage.driver.ts pathOf). */
  const storedPath = (key: string) => {
    const hash = createHash('sha256').update(key).digest('hex');
    return join(storageDir, hash.slice(0, 2), hash.slice(2, 4), key);
  };

  it('a tus upload whose PATCHes alternate between the API processes completes with the right bytes', async () => {
    const slug = await createDrop();
    const file = randomBytes(3 * MiB + 17);
    const created = await tusCreate(collection(A, slug), file.length, { filename: 'alternating.bin' });
    expect(created.status).toBe(201);
    let offset = 0;
    let submission: string | null = null;
    for (const [i, end] of [
      [A, MiB],
      [B, 2 * MiB],
      [A, 3 * MiB],
      [B, file.length],
    ] as const) {
      const head = await tus(on(i, created.location), 'HEAD');
      expect(head.headers.get('upload-offset')).toBe(String(offset));
      const res = await tusPatch(on(i, created.location), offset, file.subarray(offset, end));
      expect(res.status).toBe(204);
      offset = end;
      submission = res.headers.get('dropline-submission-id');
    }
    expect(submission).toMatch(/^sub_/);
    const { rows } = await db.query('SELECT storage_key FROM submissions WHERE id = $1', [submission]);
    expect((await readFile(storedPath(rows[0].storage_key))).equals(file)).toBe(true);
  });

  it('a PATCH stalled on one process never writes after the upload was resumed and finished on the other', async () => {
    const slug = await createDrop();
    const file = randomBytes(2 * MiB);
    const created = await tusCreate(collection(A, slug), file.length, { filename: 'stalled.bin' });
    const id = created.location.split('/').pop()!;
    // The client's first PATCH: half the body arrives on A, then the connection stalls.
    const stalled = openRequest(
      on(A, created.location),
      'PATCH',
      { 'Tus-Resumable': '1.0.0', 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream', 'Content-Length': file.length },
      file.subarray(0, MiB),
    );
    await waitUntil('the stalled half on disk', async () => (await stat(tusFile(id)).catch(() => undefined))?.size === MiB, 30_000, 50);
    // The client gives up on it and resumes on B: HEAD, then PATCH from the offset B reports.
    const head = await tus(on(B, created.location), 'HEAD');
    expect(head.status).toBe(200);
    const resumeAt = Number(head.headers.get('upload-offset'));
    const done = await tusPatch(on(B, created.location), resumeAt, file.subarray(resumeAt));
    expect(done.status).toBe(204);
    const submission = done.headers.get('dropline-submission-id');
    expect(submission).toMatch(/^sub_/);
    // The stalled request wakes up and sends the rest of its body: none of it may be written.
    stalled.req.end(file.subarray(MiB));
    const late = await stalled.answer;
    // Answered or cut off, but never a failure of the server (it was 500 ENOENT: a write into the finished upload).
    expect(late.status ?? 0).toBeLessThan(500);
    const { rows } = await db.query('SELECT storage_key, file_size FROM submissions WHERE id = $1', [submission]);
    expect(Number(rows[0].file_size)).toBe(file.length);
    expect((await readFile(storedPath(rows[0].storage_key))).equals(file)).toBe(true);
    for (const api of apis) expect(api.tail(400)).not.toMatch(/ENOENT|tus request failed/);
  });

  it(`the per-address cap (${CAP} uploads) counts both processes' single POSTs and tus PATCH/HEAD`, async () => {
    const slug = await createDrop();
    const other = await tusCreate(collection(A, slug), 10, { filename: 'other.bin' });
    expect(other.status).toBe(201);
    const upload = await tusCreate(collection(B, slug), 2 * MiB, { filename: 'slow-tus.bin' });
    // The creations' own slots are freed as their answers close, a moment after the client has them.
    const slotKey = `${queuePrefix}:upload-slots:127.0.0.1`;
    await waitUntil('the creations have let go of their slots', async () => (await redis.zcard(slotKey)) === 0, 10_000, 20);
    const boundary = `----multi${randomBytes(6).toString('hex')}`;
    const preamble = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    // One slow single POST on A and one slow tus PATCH on B: the address's two slots.
    const post = openRequest(
      `${base(A)}/v1/public/drops/${slug}/submissions`,
      'POST',
      { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': preamble.length + 2 * MiB + 100 },
      Buffer.concat([preamble, image]),
    );
    // Counted in Redis: wait until A holds it (a count kept per process leaves Redis empty; the refusal below then fails).
    await waitUntil('the slow POST in progress', async () => (await redis.zcard(slotKey)) === 1, 10_000, 20).catch(() => undefined);
    const beforePatch = await redis.zrange(slotKey, 0, -1);
    const patch = openRequest(
      on(B, upload.location),
      'PATCH',
      { 'Tus-Resumable': '1.0.0', 'Upload-Offset': 0, 'Content-Type': 'application/offset+octet-stream', 'Content-Length': 2 * MiB },
      randomBytes(64 * 1024),
    );
    // Both held before the third arrives (else the third could take the PATCH's place: a race, not the cap).
    await waitUntil('the slow PATCH in progress', async () => (await redis.zcard(slotKey)) === 2, 10_000, 20).catch(() => undefined);
    try {
      // Either process, any upload request: the third is refused while the two are in progress.
      const third = async (i: number) => {
        const fd = new FormData();
        fd.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'third.png');
        const res = await fetch(`${base(i)}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: fd });
        const body: any = await res.json();
        return { status: res.status, body };
      };
      let last: unknown;
      await waitUntil('a third single POST refused on B', async () => ((last = await third(B)) as { status: number }).status === 429, 20_000).catch(async (err) => {
        const settled = async (o: OpenRequest) => Promise.race([o.answer, new Promise((r) => setTimeout(() => r('pending'), 100))]);
        const slots = await redis.zrange(slotKey, 0, -1, 'WITHSCORES');
        throw new Error(
          `${err.message}: ${JSON.stringify(last)} post=${JSON.stringify(await settled(post))} patch=${JSON.stringify(await settled(patch))} slots=${JSON.stringify(slots)} beforePatch=${JSON.stringify(beforePatch)}\n${apis[A].tail(10)}\n${apis[B].tail(10)}`,
        );
      });
      const refused = await third(A);
      expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_uploads' } } });
      const patchOnA = await tusPatch(on(A, other.location), 0, Buffer.from('0123456789'));
      expect(patchOnA.status).toBe(429);
      expect(patchOnA.body.error.code).toBe('too_many_uploads');
      expect((await tus(on(B, other.location), 'HEAD')).status).toBe(429);
    } finally {
      post.req.destroy();
      patch.req.destroy();
    }
    await waitUntil(
      'a slot again once the slow uploads are gone',
      async () => (await tusPatch(on(A, (await tusCreate(collection(A, slug), 4, { filename: 'x.bin' })).location), 0, Buffer.from('abcd'))).status === 204,
      20_000,
    );
  });

  it('a key revoked by the admin CLI is refused by both API processes at once', async () => {
    const other = await createTenant(TEST_DATABASE_URL);
    for (const i of [A, B]) expect((await apiCall(base(i), other.token, 'GET', '/v1/drops')).status).toBe(200);
    await run('npm', ['run', '-s', 'admin', '--', 'key:revoke', other.keyId], { env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, LOG_LEVEL: 'silent' } });
    for (const i of [A, B]) {
      const res = await apiCall(base(i), other.token, 'GET', '/v1/drops');
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 401, code: 'revoked' });
    }
  });

  it('one idempotency key sent to both API processes at once makes one job', async () => {
    const key = randomUUID();
    const body = { tool: 'image-convert', input: { url: `${files.origin}/icon.png` }, options: { format: 'webp' } };
    const answers = await Promise.all([A, B].map((i) => apiCall(base(i), tenant.token, 'POST', '/v1/jobs', body, { 'Idempotency-Key': key })));
    const ids = new Set(answers.filter((a) => a.status! < 300).map((a) => a.body.id));
    for (const a of answers) expect([202, 409]).toContain(a.status);
    expect(ids.size).toBe(1);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND id = ANY($2)', [tenant.account.id, [...ids]]);
    expect(rows[0].n).toBe(1);
  });

  it('a cancel sent to one API process stops a job queued through the other: no worker runs it', async () => {
    // Both workers busy (one image job each: IMAGE_WORKER_CONCURRENCY=1) with inputs that never finish.
    const busy: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await apiCall(base(A), tenant.token, 'POST', '/v1/jobs', { tool: 'image-convert', input: { url: `${files.origin}/stall.png` }, options: { format: 'webp' } });
      expect(res.status).toBe(202);
      busy.push(res.body.id);
    }
    await waitUntil('both workers fetching their stalled input', () => inputSockets.size >= 2, 30_000);
    const queued = await apiCall(base(A), tenant.token, 'POST', '/v1/jobs', { tool: 'image-convert', input: { url: `${files.origin}/never.png` }, options: { format: 'webp' } });
    expect(queued.status).toBe(202);
    const canceled = await apiCall(base(B), tenant.token, 'POST', `/v1/jobs/${queued.body.id}/cancel`);
    expect({ status: canceled.status, state: canceled.body?.job?.state }).toEqual({ status: 200, state: 'canceled' });
    // The workers free up: the canceled job is never fetched, never run.
    for (const socket of inputSockets) socket.destroy();
    for (const id of busy) {
      await waitUntil(
        `busy job ${id} over`,
        async () => ['failed', 'completed'].includes((await apiCall(base(A), tenant.token, 'GET', `/v1/jobs/${id}`)).body?.job?.state),
        60_000,
      );
    }
    expect(workers.every((w) => w.isAlive())).toBe(true);
    const after = await apiCall(base(B), tenant.token, 'GET', `/v1/jobs/${queued.body.id}`);
    expect(after.body.job.state).toBe('canceled');
    expect(neverFetched).toBe(0);
  });

  it('the public per-address rate limit is one count for both processes, tus creations and ids not admitted included; an admitted upload continues on either', async () => {
    const slug = await createDrop();
    const created = await tusCreate(collection(A, slug), 10, { filename: 'limited.bin' });
    const madeUp = `${collection(A, slug)}/obj_${randomBytes(8).toString('hex')}`;
    // The address's shared window, spent and stretched to a few seconds: every process must refuse.
    await redis.set(`${queuePrefix}:rl:ip:${IP_LIMIT}:127.0.0.1`, IP_LIMIT * 10, 'PX', 5000);
    await waitUntil('HEAD refused on A', async () => (await tus(madeUp, 'HEAD')).status === 429, 5000, 50);
    expect((await tus(on(B, madeUp), 'HEAD')).status).toBe(429);
    const patch = await tusPatch(on(B, madeUp), 0, Buffer.from('0123456789'));
    expect({ status: patch.status, code: patch.body?.error?.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect((await tusCreate(collection(B, slug), 10, { filename: 'more.bin' })).status).toBe(429);
    // Its creation was counted; the requests that continue it are not, on either process.
    expect((await tus(on(B, created.location), 'HEAD')).status).toBe(200);
    expect((await tusPatch(on(A, created.location), 0, Buffer.from('0123456789'))).headers.get('dropline-submission-id')).toMatch(/^sub_/);
  });
});
