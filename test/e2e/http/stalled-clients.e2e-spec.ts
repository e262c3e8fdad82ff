import { connect } from 'node:net';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { eventually, form, ownerSnapshot, png, removeDir, sendStream, storedFiles, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/** A multipart upload that sends its preamble and 5 KB of the file, then nothing more, ever. */
function stalledBody(): { body: Readable; contentType: string } {
  const boundary = 'stall';
  const body = new Readable({ read() {} });
  body.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  body.push(Buffer.alloc(5 * 1024, 7));
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Stalled and slow clients: an upload that stops sending is cut off after UPLOAD_IDLE_TIMEOUT_S
 * and leaves nothing; headers trickled in byte by byte are cut off too.
 */
describe('stalled and slow clients', () => {
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  let slug: string;
  const port = () => Number(new URL(t.baseUrl).port);

  beforeAll(async () => {
    dir = await tempStorageDir('stalled');
    t = await startTestApp({ STORAGE_DIR: dir, UPLOAD_IDLE_TIMEOUT_S: '1' });
    owner = await t.newTenant();
    slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'stalls', slug } });
  });
  afterAll(async () => {
    await t.close();
    await removeDir(dir);
  });

  it('an upload that stops sending is cut off, its partial file removed, nothing counted', async () => {
    const { body, contentType } = stalledBody();
    // Resolves once the server answers or cuts the connection: without an idle timeout, never.
    const answer = await sendStream(t, slug, body, contentType);
    expect(answer.status === null || answer.status >= 400).toBe(true);
    body.destroy();
    expect(await eventually(async () => (await storedFiles(dir)).length === 0, 10_000)).toBe(true);
    const snapshot = await ownerSnapshot(owner, slug);
    expect(snapshot).toMatchObject({ submissionCount: 0, totalBytes: 0, ids: [] });
  });

  it('headers trickled in a byte at a time are cut off (header timeout)', async () => {
    const socket = connect(port(), '127.0.0.1');
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n`);
    // A byte every 200 ms keeps the socket busy, so only a header deadline can end it.
    const trickle = setInterval(() => !closed && socket.write('X'), 200);
    try {
      expect(await eventually(async () => closed, 30_000, 100)).toBe(true);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});

/**
 * The per-address cap, in its own app: the idle timeout there is the default 30 s, so the two held
 * uploads keep their slots however slowly this loaded machine runs, and only the test frees them.
 */
describe('uploads in progress per address', () => {
  let t: TestApp;
  let dir: string;
  let slug: string;

  beforeAll(async () => {
    dir = await tempStorageDir('slots');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_UPLOADS_PER_IP: '2' });
    const owner = await t.newTenant();
    slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'slots', slug } });
  });
  afterAll(async () => {
    await t.close();
    await removeDir(dir);
  });

  it('a third upload from one address while two are in progress is 429 too_many_uploads; a freed slot admits the next', async () => {
    const held = [0, 1].map(() => {
      const { body, contentType } = stalledBody();
      const req = request(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', headers: { 'content-type': contentType } });
      req.on('error', () => undefined);
      body.pipe(req);
      return { req, body };
    });
    // Each held upload took its slot before streaming into its partial file: wait for both files,
    // not for time (a third upload sent earlier could take a slot first and leave a held one refused).
    expect(await eventually(async () => (await storedFiles(dir)).length === 2, 20_000)).toBe(true);
    const file = await png();
    const refused = await submit(t, slug, form({}, { data: file, name: 'p.png', type: 'image/png' }));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_uploads');
    expect(refused.headers?.get('retry-after')).toBe('1');
    for (const h of held) {
      h.body.destroy();
      h.req.destroy();
    }
    const admitted = await eventually(
      async () => {
        const answer = await submit(t, slug, form({}, { data: file, name: 'p.png', type: 'image/png' }));
        return answer.status === 201 ? answer : undefined;
      },
      20_000,
      50,
    );
    expect(admitted?.status).toBe(201);
  });
});
