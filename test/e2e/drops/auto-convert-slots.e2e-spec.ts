import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Client } from 'pg';
import { QUEUES } from '../../../src/queue/queue.module';
import { TEST_DATABASE_URL } from '../../support/env';
import { form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Issue 10 item 2: a drop's auto-conversions count against the owner's in-flight limit. Extra ones
 * wait for a slot (the sender still gets a 201) and are paid at once, so credits never overdraw.
 * The uploads go to an API without a worker; a worker app on the same queues then works them off.
 */
describe("auto-conversion and the owner's in-flight limit", () => {
  let api: TestApp;
  let worker: TestApp | undefined;
  let dir: string;
  let db: Client;

  beforeAll(async () => {
    dir = await tempStorageDir('slots');
    api = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'false' });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await worker?.close();
    await api.close();
    await removeDir(dir);
  });

  it('five anonymous uploads to a free account (limit 2): never more than 2 conversions queued or running, all five converted', async () => {
    const owner = await api.newTenant({ plan: 'free', credits: 10 });
    const slug = uniqueSlug();
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Photos', slug, allowedKinds: 'image', autoConvertTo: 'webp' } })).response.status).toBe(201);
    const image = await png(40, 30);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(api, slug, form({ senderName: 'Stranger' }, { data: image, name: `p${i}.png`, type: 'image/png' }));
      expect(res.status).toBe(201); // never refused because the owner is busy
      expect(res.body.submission.status).toBe('processing');
      ids.push(res.body.submission.id);
    }
    // All five are paid now: the balance can never be overdrawn later.
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(5);

    const queue = api.app.get<Queue>(getQueueToken(QUEUES.image));
    // Before the fix all five were in the queue at once.
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    expect(counts.waiting + counts.active + counts.delayed + counts.prioritized).toBe(2);
    // Jobs handed to the queue and not ended yet. (BullMQ's own `active` count also holds a job
    // whose end is committed while its worker finishes the queue's bookkeeping.)
    const inFlight = async (): Promise<number> =>
      (await db.query("SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND state IN ('queued', 'running') AND enqueued_at IS NOT NULL", [owner.account.id])).rows[0].n;
    expect(await inFlight()).toBe(2);

    worker = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'true', QUEUE_PREFIX: api.queuePrefix });
    const deadline = Date.now() + 120_000;
    let most = 0;
    for (;;) {
      most = Math.max(most, await inFlight());
      // Polled in the database: the free plan's 5 requests/s would throttle an API poll.
      const { rows } = await db.query('SELECT status FROM submissions WHERE id = ANY($1)', [ids]);
      if (rows.every((r) => r.status !== 'processing')) break;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(most).toBeLessThanOrEqual(2);
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
    const byId = new Map(data!.submissions.map((x) => [x.id, x]));
    expect(ids.map((id) => [byId.get(id)?.status, byId.get(id)?.processedFileName])).toEqual(ids.map((_, i) => ['ready', `p${i}.webp`]));
    expect((await owner.client.GET('/v1/account')).data!.account.creditBalance).toBe(5);
  }, 180_000);
});
