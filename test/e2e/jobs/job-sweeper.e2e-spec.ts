import { getQueueToken } from '@nestjs/bullmq';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import sharp from 'sharp';
import { newId } from '../../../src/common/ids';
import { ReconcileJobs } from '../../../src/jobs/use-cases/reconcile-jobs';
import { QUEUES } from '../../../src/queue/queue.module';
import { contractFetch } from '../../support/contract-check';
import { TEST_DATABASE_URL } from '../../support/env';
import { waitForJob } from '../../support/jobs';
import { makePng, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/**
 * The job sweeper (src/jobs/job-sweeper.ts) of two deployments sharing one database: each
 * reconciles only the jobs queued under its own prefix, and a job accepted but never queued (the
 * API died between its commit and its enqueue) is queued by its own deployment's sweeper and runs.
 */
describe('job sweeper', () => {
  let mine: TestApp;
  let neighbour: TestApp;
  let tenant: Tenant;
  let db: Client;
  let dir: string;
  let files: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-sweeper-'));
    files = await serveFiles({ 'icon.png': await makePng(64, 48) });
    const env = { WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
    mine = await startTestApp({ ...env, STORAGE_DIR: join(dir, 'mine') });
    neighbour = await startTestApp({ ...env, STORAGE_DIR: join(dir, 'neighbour') });
    tenant = await mine.newTenant({ credits: 10 });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await neighbour.close();
    await mine.close();
    await files.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A committed, paid-for job row of `mine` that never reached the queue, as a crash leaves it. */
  async function strandedJob(enqueuedAt: 'never' | 'long ago'): Promise<string> {
    const id = newId('job');
    await db.query(
      `INSERT INTO jobs (id, account_id, api_key_id, tool, queue, queue_prefix, state, progress, input, options, cost, refunded, enqueued_at, created_at)
       VALUES ($1, $2, $3, 'image-resize', $4, $5, 'queued', 0, $6, '{"width": 16}', 1, false, $7, now() - interval '1 minute')`,
      [id, tenant.account.id, tenant.keyId, QUEUES.image, mine.queuePrefix, { url: files.url('icon.png') }, enqueuedAt === 'never' ? null : new Date(Date.now() - 60_000)],
    );
    return id;
  }

  const queueOf = (t: TestApp) => t.app.get<Queue>(getQueueToken(QUEUES.image));

  async function expectRunsToCompletion(id: string): Promise<void> {
    const job = await waitForJob(tenant.client, id);
    expect(job).toMatchObject({ state: 'completed', error: null });
    const output = Buffer.from(await (await contractFetch(job.result!.downloadUrl!)).arrayBuffer());
    expect(await sharp(output).metadata()).toMatchObject({ format: 'png', width: 16, height: 12 });
  }

  it('a job accepted but never queued: ignored by the neighbour, queued by its own sweeper, and run', async () => {
    const id = await strandedJob('never');
    await neighbour.app.get(ReconcileJobs).sweep();
    expect(await queueOf(neighbour).getJobState(id)).toBe('unknown');

    await mine.app.get(ReconcileJobs).sweep();
    expect((await db.query('SELECT enqueued_at FROM jobs WHERE id = $1', [id])).rows[0].enqueued_at).not.toBeNull();
    await expectRunsToCompletion(id);
    expect(await queueOf(neighbour).getJobState(id)).toBe('unknown');
  });

  it('a job the queue lost: the neighbour does not re-queue it under its prefix, its own sweeper does', async () => {
    const id = await strandedJob('long ago');
    await neighbour.app.get(ReconcileJobs).sweep();
    expect(await queueOf(neighbour).getJobState(id)).toBe('unknown');

    await mine.app.get(ReconcileJobs).sweep();
    await expectRunsToCompletion(id);
    expect(await queueOf(neighbour).getJobState(id)).toBe('unknown');
  });
});
