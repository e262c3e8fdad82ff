import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, JobAccepted } from '../../../generated/types';
import { countingServer, type CountingServer, waitForJob } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/**
 * Per-account fair share on a media queue (JobQueue): with one image worker slot busy, account A
 * queues a backlog, then account B queues one job; B's job runs before A's backlog, not after it.
 */
describe('fair share between accounts on a queue', () => {
  let t: TestApp;
  let dir: string;
  let server: CountingServer;
  let release: () => void;
  let gateReached: Promise<void>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-fairness-'));
    const png = await makePng();
    // /gate.png is answered only when the test says so: the one worker slot stays busy with it
    // while the backlog and the other account's job are queued behind it.
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    gateReached = new Promise<void>((resolve) => (reached = resolve));
    server = await countingServer('127.0.0.1', (req, res) => {
      const send = () => res.setHeader('content-length', png.length).end(png);
      if (req.url === '/gate.png') {
        reached();
        void released.then(send);
      } else send();
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files'), IMAGE_WORKER_CONCURRENCY: '1' });
  });
  afterAll(async () => {
    release?.();
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function submit(tenant: Tenant, file: string): Promise<string> {
    const { data, response } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: `${server.origin}/${file}` }, options: { width: 32 } } });
    expect(response.status).toBe(202);
    return (data as JobAccepted).id;
  }

  it("a second account's first job overtakes the first account's backlog", async () => {
    const a = await t.newTenant();
    const b = await t.newTenant();
    const first = await submit(a, 'gate.png');
    await gateReached; // the only image slot now runs A's first job
    const backlog: string[] = [];
    for (let i = 0; i < 5; i++) backlog.push(await submit(a, 'photo.png'));
    const bJob = await submit(b, 'photo.png');
    release();

    const finishedAt = (job: Job) => new Date(job.finishedAt!).getTime();
    const aJobs = await Promise.all([first, ...backlog].map((id) => waitForJob(a.client, id)));
    const bDone = await waitForJob(b.client, bJob);
    for (const job of [...aJobs, bDone]) expect(job.state).toBe('completed');
    const backlogFinished = aJobs.slice(1).map(finishedAt);
    // B waited for the job already running, not for A's queued backlog.
    expect(finishedAt(bDone)).toBeLessThan(Math.max(...backlogFinished));
    expect(finishedAt(bDone)).toBeLessThanOrEqual(Math.min(...backlogFinished));
  });
});
