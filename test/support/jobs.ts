import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DroplineClient } from '../../generated/client';
import type { Job } from '../../generated/types';
import { makePng, serveFiles } from './media-fixtures';
import { startTestApp, type TestApp } from './test-app';

/** Helpers for the media-job suites: polling, loopback servers that count hits, queue exclusivity. */

const FINAL = ['completed', 'failed', 'canceled'];

/** Polls GET /v1/jobs/{id} until the job is final (or `until` says so); throws after timeoutMs. */
export async function waitForJob(client: DroplineClient, id: string, timeoutMs = 60_000, until?: (job: Job) => boolean): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, response } = await client.GET('/v1/jobs/{id}', { params: { path: { id } } });
    if (response.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000)); // a plan's rate limit: poll slower
      continue;
    }
    if (!data) throw new Error(`GET job ${id}: HTTP ${response.status}`);
    const job = data.job;
    if (until ? until(job) : FINAL.includes(job.state)) return job;
    if (FINAL.includes(job.state)) throw new Error(`job ${id} ended ${job.state} (${JSON.stringify(job.error)}) before the awaited condition`);
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state} (progress ${job.progress}) after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The account's balance; a free plan's 5 requests a second are the suite's own, so a 429 waits the Retry-After it names. */
export async function creditBalance(client: DroplineClient): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { data, response } = await client.GET('/v1/account');
    if (data) return data.account.creditBalance;
    if (response.status !== 429 || attempt >= 10) throw new Error(`GET /v1/account: HTTP ${response.status}`);
    await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

export interface CountingServer {
  server: Server;
  host: string;
  port: number;
  /** `http://host:port` with IPv6 hosts bracketed. */
  origin: string;
  /** HTTP requests received. */
  hits: number;
  /** TCP connections accepted (a refused fetch must not even connect). */
  connections: number;
  close(): Promise<void>;
}

/**
 * An HTTP server on a loopback address that counts every connection and request. Used as a
 * canary (an address outside ALLOW_PRIVATE_HOSTS: any hit is an SSRF hole) and as a fixture
 * server with a handler. Only ever binds loopback.
 */
export async function countingServer(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('canary'),
  port = 0,
): Promise<CountingServer> {
  if (!/^127\.|^::1$/.test(host)) throw new Error(`test servers bind loopback only, not ${host}`);
  const server = createServer((req, res) => {
    state.hits++;
    handler(req, res);
  });
  const state = {
    server,
    host,
    port: 0,
    origin: '',
    hits: 0,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  state.port = (server.address() as { port: number }).port;
  state.origin = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}`;
  return state;
}

export interface JobsApp {
  t: TestApp;
  /** Job inputs on 127.0.0.1: `icon.png` (a small PNG) and `notes.txt` (text, which image jobs fail on). */
  files: Awaited<ReturnType<typeof serveFiles>>;
  close(): Promise<void>;
}

/** An app running the job and webhook queues in-process (webhook retries after 1 s), with its inputs served beside it. */
export async function startJobsApp(name: string, env: Record<string, string> = {}): Promise<JobsApp> {
  const files = await serveFiles({ 'icon.png': await makePng(), 'notes.txt': Buffer.from('plain text') });
  const dir = await mkdtemp(join(tmpdir(), `dropline-${name}-`));
  const t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '1,1', STORAGE_DIR: join(dir, 'files'), ...env });
  return {
    t,
    files,
    async close() {
      await t.close();
      await files.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
