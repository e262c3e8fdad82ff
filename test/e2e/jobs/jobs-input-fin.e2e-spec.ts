import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, JobAccepted } from '../../../generated/types';
import { waitForJob } from '../../support/jobs';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

/** Declared and sent in full: over the free plan's 25 MB, so the tenant is on `pro` (500 MB). */
const BODY_BYTES = 40_000_000;
const JOBS = 8;

/**
 * Issue 25 §0: an input server that sends a large body and closes its side (FIN) right after the
 * last byte. undici 7 asserted `!this.paused` in its HTTP/1 parser when the FIN arrived while the
 * body was paused by backpressure (nodejs/undici#5360) — from a socket event handler, so the
 * exception took the whole process down, API and in-process worker. Each job now ends with a
 * clear code (the zeros are not an image) and the service keeps answering.
 */
describe('a job input whose server sends a big body then FIN at once', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let server: Server;
  let origin: string;
  let requests = 0;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-fin-'));
    const body = Buffer.alloc(BODY_BYTES);
    // Raw TCP, so the bytes and the FIN are exactly these: headers, the whole body, then end().
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined); // the client may reset once it has what it needs
      let head = '';
      socket.on('data', (chunk) => {
        if (head.includes('\r\n\r\n')) return;
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        requests++;
        // `/close-*` says it will close (as HTTP/1.0 servers such as Python's http.server do): the
        // path where undici 7 asserted; `/keep-*` closes without saying so.
        const close = head.startsWith('GET /close-') ? 'Connection: close\r\n' : '';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${BODY_BYTES}\r\n${close}\r\n`);
        socket.write(body);
        socket.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    // As many downloads at once as jobs: concurrency is what makes backpressure (and the crash) likely.
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', IMAGE_WORKER_CONCURRENCY: String(JOBS), STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ plan: 'pro', credits: 100 });
  });

  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('every job ends failed with unsupported_input, refunded, and /healthz answers throughout', async () => {
    // Submitted together: the in-process worker downloads several of them at once.
    const ids = await Promise.all(
      Array.from({ length: JOBS }, async (_, i) => {
        const { data, response } = await tenant.client.POST('/v1/jobs', {
          body: { tool: 'image-resize', input: { url: `${origin}/${i % 2 ? 'keep' : 'close'}-${i}.png` }, options: { width: 100 } },
        });
        expect(response.status).toBe(202);
        return (data as JobAccepted).id;
      }),
    );
    const jobs: Job[] = [];
    for (const id of ids) {
      jobs.push(await waitForJob(tenant.client, id, 120_000));
      expect((await contractFetch(`${t.baseUrl}/healthz`)).status).toBe(200);
    }
    for (const job of jobs) {
      expect(job).toMatchObject({ state: 'failed', result: null, error: { code: 'unsupported_input', message: expect.any(String) } });
    }
    expect(requests).toBeGreaterThanOrEqual(JOBS);
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(100);
  }, 180_000);
});
