import type { Job as BullJob } from 'bullmq';
import { createServer } from 'node:http';
import { RunJob } from '../../../src/jobs/use-cases/run-job';
import type { MediaJobData } from '../../../src/jobs/job-queue';
import { JobsRepository } from '../../../src/jobs/jobs.repository';
import { makePng } from '../../support/media-fixtures';
import { startTestApp, type TestApp } from '../../support/test-app';
import type { JobAccepted } from '../../../generated/types';

/**
 * Issue 10 item 8: a job queued a second time while its first worker is alive (the sweeper re-adds
 * a job Redis lost) must never run twice at once. The first run is held in its input fetch; a
 * second runner takes the same job meanwhile; only one run may fetch and process it.
 */
describe('one job, two runners', () => {
  let t: TestApp;
  // Input requests are held until release(); later ones are answered at once.
  let released = false;
  const held: (() => void)[] = [];
  const release = () => {
    released = true;
    held.splice(0).forEach((resolve) => resolve());
  };
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const answer = released ? Promise.resolve() : new Promise<void>((resolve) => held.push(resolve));
    void Promise.all([answer, makePng(32, 24)]).then(([, png]) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    release();
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('the second runner waits for the first run instead of running beside it', async () => {
    const tenant = await t.newTenant();
    const { port } = server.address() as { port: number };
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: `http://127.0.0.1:${port}/in.png` }, options: { width: 16 } } as any });
    const jobId = (data as JobAccepted).id;
    await until('the first run to fetch its input', () => hits === 1);

    const repository = t.app.get(JobsRepository, { strict: false });
    const start = jest.spyOn(repository, 'start');
    const second = t.app.get(RunJob, { strict: false }).process({ data: { jobId }, attemptsMade: 0, opts: { attempts: 3 } } as unknown as BullJob<MediaJobData>);
    // Once the second runner's claim has been answered, the first run may go on.
    await until('the second claim', () => start.mock.results.length > 0);
    await start.mock.results[0].value;
    release();
    await second;
    await until('the job to complete', async () => (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: jobId } } })).data!.job.state === 'completed');
    start.mockRestore();
    // Before the fix the second runner claimed the running job too: two fetches, two runs.
    expect(hits).toBe(1);
  }, 120_000);
});
