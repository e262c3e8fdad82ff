import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../../src/common/clock';
import { CONSEQUENCES_GRACE_MS, ReconcileJobs } from '../../../src/jobs/use-cases/reconcile-jobs';
import { SettleJob } from '../../../src/jobs/use-cases/settle-job';
import type { Job } from '../../../src/jobs/job.entity';
import { JobsRepository } from '../../../src/jobs/jobs.repository';
import { contractFetch } from '../../support/contract-check';
import { waitForJob } from '../../support/jobs';
import { makePng, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';
import type { JobAccepted } from '../../../generated/types';

/**
 * A job's end and its consequences (slot promotion, the auto-converted submission's update and
 * submission.processed, the job webhook) form one durable step: the final state write marks them
 * pending, and when delivering them fails the job sweeper delivers them again, without sending any
 * webhook twice. The failure is injected in the test app's own SettleJob / JobsRepository instances.
 */
describe("a finished job's consequences: at least once, each webhook once", () => {
  let t: TestApp;
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let files: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-consequences-'));
    receiver = await startReceiver();
    files = await serveFiles({ 'icon.png': await makePng() });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await files.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The job's consequences step throws the first time it runs for each job, after the job's state was written. */
  function failConsequencesOnce(): Map<string, Job> {
    const events = t.app.get(SettleJob, { strict: false });
    const real = events.finished.bind(events);
    const failedOnce = new Map<string, Job>();
    jest.spyOn(events, 'finished').mockImplementation(async (job) => {
      if (failedOnce.has(job.id)) return real(job);
      failedOnce.set(job.id, job);
      throw new Error('injected: the consequences step failed');
    });
    return failedOnce;
  }

  /** One pass of the job sweeper with the Clock past the consequences' grace period. */
  async function sweepAfterGrace(): Promise<void> {
    const clock = t.app.get(Clock, { strict: false });
    const moved = jest.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + CONSEQUENCES_GRACE_MS + 1000));
    try {
      await t.app.get(ReconcileJobs).sweep();
    } finally {
      moved.mockRestore();
    }
  }

  const eventsOf = (type: string, match: (data: any) => boolean) =>
    receiver.received.map((h) => JSON.parse(h.body) as { type: string; data: any }).filter((e) => e.type === type && match(e.data));

  async function deliveries(owner: Tenant, type: string) {
    const { data } = await owner.client.GET('/v1/webhook-deliveries', { params: { query: { limit: 100 } } });
    return data!.deliveries.filter((d) => d.eventType === type);
  }

  async function submitWithWebhook(owner: Tenant): Promise<string> {
    const { data, response } = await owner.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 16 }, webhookUrl: receiver.url },
    });
    expect(response.status).toBe(202);
    return (data as JobAccepted).id;
  }

  async function sendToAutoConvertingDrop(owner: Tenant): Promise<{ slug: string; id: string }> {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Photos', slug, allowedKinds: 'image', autoConvertTo: 'webp', webhookUrl: receiver.url } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await makePng(40, 30))], { type: 'image/png' }), 'photo.png');
    const res = await contractFetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { submission } = await res.json();
    expect(submission.status).toBe('processing');
    return { slug, id: submission.id };
  }

  const submissionOf = async (owner: Tenant, slug: string, id: string) =>
    (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).data!.submission;

  it('the consequences step throws once: the sweeper delivers the job webhook once and the auto-converted submission becomes ready', async () => {
    const failedOnce = failConsequencesOnce();
    const owner = await t.newTenant({ plan: 'pro' });
    const jobId = await submitWithWebhook(owner);
    const drop = await sendToAutoConvertingDrop(owner);

    expect((await waitForJob(owner.client, jobId)).state).toBe('completed');
    const conversion = await until('the conversion to end and its consequences to fail', async () => [...failedOnce.values()].find((j) => j.submissionId === drop.id));
    await until('the job webhook attempt to fail', async () => failedOnce.has(jobId));
    // Both jobs ended; what follows did not happen (yet).
    expect((await submissionOf(owner, drop.slug, drop.id)).status).toBe('processing');
    expect(await deliveries(owner, 'job.completed')).toHaveLength(0);

    await until('the sweeper to deliver the consequences', async () => {
      await sweepAfterGrace();
      return (await submissionOf(owner, drop.slug, drop.id)).status === 'ready' && (await deliveries(owner, 'job.completed')).length === 1;
    });
    expect(await submissionOf(owner, drop.slug, drop.id)).toMatchObject({ status: 'ready', processedFileName: 'photo.webp' });
    await until('both webhooks to be sent', async () =>
      (await deliveries(owner, 'job.completed')).concat(await deliveries(owner, 'submission.processed')).every((d) => d.status === 'succeeded'),
    );
    expect(eventsOf('job.completed', (d) => d.job.id === jobId)).toHaveLength(1);
    expect(eventsOf('submission.processed', (d) => d.submission.id === drop.id)).toHaveLength(1);
    // Delivered means done: another sweep finds nothing pending.
    const pending = await t.app.get(JobsRepository).findConsequencesPending(t.queuePrefix, new Date(Date.now() + 3600_000), 100);
    expect(pending.map((j) => j.id)).not.toContain(jobId);
    expect(pending.map((j) => j.id)).not.toContain(conversion.id);
  }, 90_000);

  it('the consequences ran but were not marked done: the redelivery sends no second webhook', async () => {
    const jobs = t.app.get(JobsRepository);
    const markDone = jobs.markConsequencesDone.bind(jobs);
    const unmarked = new Set<string>();
    jest.spyOn(jobs, 'markConsequencesDone').mockImplementation(async (id) => {
      if (unmarked.has(id)) return markDone(id);
      unmarked.add(id);
      throw new Error('injected: the worker died before marking the consequences done');
    });
    const owner = await t.newTenant({ plan: 'pro' });
    const jobId = await submitWithWebhook(owner);
    const drop = await sendToAutoConvertingDrop(owner);
    await until('the job webhook and submission.processed to be sent', async () => {
      const sent = (await deliveries(owner, 'job.completed')).concat(await deliveries(owner, 'submission.processed'));
      return sent.length === 2 && sent.every((d) => d.status === 'succeeded');
    });
    expect(unmarked.has(jobId)).toBe(true);

    await until('the sweeper to deliver the consequences again and mark them done', async () => {
      await sweepAfterGrace();
      return (await jobs.findConsequencesPending(t.queuePrefix, new Date(Date.now() + 3600_000), 100)).every((j) => j.accountId !== owner.account.id);
    });
    expect(unmarked.size).toBe(2); // both jobs' consequences were redelivered
    expect(await deliveries(owner, 'job.completed')).toHaveLength(1);
    expect(await deliveries(owner, 'submission.processed')).toHaveLength(1);
    expect(eventsOf('job.completed', (d) => d.job.id === jobId)).toHaveLength(1);
    expect(eventsOf('submission.processed', (d) => d.submission.id === drop.id)).toHaveLength(1);
    expect(await submissionOf(owner, drop.slug, drop.id)).toMatchObject({ status: 'ready' });
  }, 90_000);
});
