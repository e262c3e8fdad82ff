import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Account } from '../../src/accounts/account.entity';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { newId } from '../../src/common/ids';
import type { Drop } from '../../src/drops/drop.entity';
import { DropsModule } from '../../src/drops/drops.module';
import { DropsRepository } from '../../src/drops/drops.repository';
import { Transactions } from '../../src/database/transactions';
import { JobAdmission } from '../../src/jobs/job-admission';
import type { StoredJobResult } from '../../src/jobs/job.entity';
import { JobsModule } from '../../src/jobs/jobs.module';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { CancelJob } from '../../src/jobs/use-cases/cancel-job';
import { CONSEQUENCES_GRACE_MS, ReconcileJobs } from '../../src/jobs/use-cases/reconcile-jobs';
import { SettleJob } from '../../src/jobs/use-cases/settle-job';
import { PipelinesRepository } from '../../src/jobs/pipelines.repository';
import { PipelineCheck } from '../../src/tools/pipeline-check';
import { SubmitJob } from '../../src/jobs/use-cases/submit-job';
import { IntakeService } from '../../src/submissions/intake.service';
import { ProcessedListener } from '../../src/submissions/processed-listener';
import { SubmissionsModule } from '../../src/submissions/submissions.module';
import { SubmissionsRepository } from '../../src/submissions/submissions.repository';
import { ExclusiveSweepsModule } from '../../src/sweeps/sweeps.module';
import { TOOLS } from '../../src/tools/tool-registry';
import { UploadsModule } from '../../src/uploads/uploads.module';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { NEW_DROP_SETTINGS } from '../support/drops';
import { balanceOf, newServiceTest, tenant, type ServiceTest, type TestClock } from './service-test';
import { mediaQueue, webhookQueue } from './stand-ins';

const LEASE_MS = 30_000;
const RESULT: StoredJobResult = { outputFormat: 'webp', outputSize: 10, outputFileName: 'out.webp' };

/**
 * The job use cases after admission, on the real Postgres: cancel in each state, settle (complete,
 * fail, refund once), reconcile a stuck job, and a drop arrival's conversion from intake to the
 * submission's update. JobsModule and SubmissionsModule are the real ones; only the queues' producers are stand-ins.
 */
describe('job lifecycle use cases', () => {
  let t: ServiceTest;
  let clock: TestClock;
  let db: DataSource;
  let jobs: JobsRepository;
  let settle: SettleJob;
  let cancel: CancelJob;
  let reconcile: ReconcileJobs;
  const queue = mediaQueue().value;

  beforeAll(async () => {
    t = await newServiceTest({
      modules: [JobsModule, SubmissionsModule, DropsModule, UploadsModule, ExclusiveSweepsModule],
      // The worker provides these two itself (WorkerModule, JobsWorkerModule), over the modules' exports.
      providers: [ReconcileJobs, ProcessedListener],
      standIns: [mediaQueue(queue), webhookQueue()],
    });
    clock = t.clock;
    // The sweep runs when a test calls it, not on its timer.
    t.get(ReconcileJobs).onApplicationShutdown();
    db = t.get(DataSource);
    jobs = t.get(JobsRepository);
    settle = t.get(SettleJob);
    cancel = t.get(CancelJob);
    reconcile = t.get(ReconcileJobs);
  });
  afterAll(() => t.close());
  afterEach(() => {
    clock.at = undefined;
    queue.reset();
    jest.restoreAllMocks();
  });

  /** The webhook events recorded for a job (its outbox rows), with the job as each carries it. */
  const webhooksOf = async (jobId: string) =>
    (
      await db.query<{ type: string; body: string }[]>(
        `SELECT event_type AS type, body FROM webhook_deliveries WHERE body::jsonb -> 'data' -> 'job' ->> 'id' = $1 ORDER BY created_at`,
        [jobId],
      )
    ).map((row) => ({ type: row.type, jobId, job: JSON.parse(row.body).data.job as Record<string, any> }));
  const webhookTypes = async (jobId: string) => (await webhooksOf(jobId)).map(({ type }) => ({ type, jobId }));
  const refundsOf = async (jobId: string) =>
    (await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM credit_ledger WHERE job_id = $1 AND reason = 'job_refund'`, [jobId]))[0].n;
  const stateOf = async (jobId: string) => (await jobs.findById(jobId))!.state;

  /** A paid job of a fresh tenant (10 credits, a 1-credit job), queued. */
  async function queuedJob(options: { webhookUrl?: string | null; plan?: Account['plan'] } = {}) {
    const { account, key } = await tenant(t, { credits: 10, plan: options.plan });
    const answer = await t.get(SubmitJob).execute({
      account,
      key: { id: key.id, dailyCap: null, monthlyCap: null },
      tool: TOOLS['image-resize'],
      input: { url: 'http://127.0.0.1:9/a.png' },
      options: { width: 10 },
      webhookUrl: options.webhookUrl ?? null,
    });
    return { account, key, jobId: (answer.body as { id: string }).id };
  }
  const start = (jobId: string) => jobs.start(jobId, new Date(), randomUUID(), LEASE_MS);

  describe('cancel, in each state', () => {
    it('queued: canceled and refunded in one step, removed from the queue; a second cancel refunds nothing', async () => {
      const { account, key, jobId } = await queuedJob();
      expect(await balanceOf(t, account.id)).toBe(9);
      const canceled = await cancel.execute(key.id, jobId);
      expect(canceled).toMatchObject({ id: jobId, state: 'canceled', refunded: true });
      expect(await balanceOf(t, account.id)).toBe(10);
      expect(queue.removed).toContain(jobId);
      await expect(cancel.execute(key.id, jobId)).rejects.toMatchObject({ code: 'cannot_cancel', message: 'The job is canceled; only a queued job can be canceled.' });
      expect(await refundsOf(jobId)).toBe(1);
    });

    it('running: refused, still charged, still running', async () => {
      const { account, key, jobId } = await queuedJob();
      expect(await start(jobId)).toBeDefined();
      await expect(cancel.execute(key.id, jobId)).rejects.toMatchObject({ code: 'cannot_cancel', message: 'The job is running; only a queued job can be canceled.' });
      expect(await stateOf(jobId)).toBe('running');
      expect(await balanceOf(t, account.id)).toBe(9);
      expect(await refundsOf(jobId)).toBe(0);
    });

    it('completed: refused, never refunded', async () => {
      const { account, key, jobId } = await queuedJob();
      await start(jobId);
      await settle.complete(jobId, newId('obj'), RESULT);
      await expect(cancel.execute(key.id, jobId)).rejects.toMatchObject({ code: 'cannot_cancel', message: 'The job is completed; only a queued job can be canceled.' });
      expect(await balanceOf(t, account.id)).toBe(9);
      expect(await refundsOf(jobId)).toBe(0);
    });

    it('failed: refused, refunded once (by the failure)', async () => {
      const { account, key, jobId } = await queuedJob();
      await settle.fail(jobId, 'processing_failed', 'x');
      await expect(cancel.execute(key.id, jobId)).rejects.toMatchObject({ code: 'cannot_cancel', message: 'The job is failed; only a queued job can be canceled.' });
      expect(await balanceOf(t, account.id)).toBe(10);
      expect(await refundsOf(jobId)).toBe(1);
    });

    it("another key's job is not found", async () => {
      const { account, jobId } = await queuedJob();
      const { key: other } = await t.get(ApiKeysService).create({ accountId: account.id, scopes: ['image:write'] });
      await expect(cancel.execute(other.id, jobId)).rejects.toMatchObject({ code: 'not_found' });
      expect(await stateOf(jobId)).toBe('queued');
    });
  });

  describe('settle', () => {
    it('complete: only a running job completes, once; its webhook is sent once and it is not refunded', async () => {
      const { account, jobId } = await queuedJob({ webhookUrl: 'http://127.0.0.1:9/hook', plan: 'pro' });
      expect(await settle.complete(jobId, newId('obj'), RESULT)).toBeUndefined(); // still queued
      await start(jobId);
      expect(await settle.complete(jobId, newId('obj'), RESULT)).toMatchObject({ state: 'completed', refunded: false });
      expect(await settle.complete(jobId, newId('obj'), RESULT)).toBeUndefined();
      await settle.fail(jobId, 'processing_failed', 'late failure');
      expect(await jobs.findById(jobId)).toMatchObject({ state: 'completed', errorCode: null, refunded: false });
      expect(await balanceOf(t, account.id)).toBe(9);
      expect(await webhookTypes(jobId)).toEqual([{ type: 'job.completed', jobId }]);
    });

    it('complete with several outputs: the further keys are stored on the row, the webhook signs each', async () => {
      const { jobId } = await queuedJob({ webhookUrl: 'http://127.0.0.1:9/hook', plan: 'pro' });
      await start(jobId);
      const result: StoredJobResult = { ...RESULT, outputs: { vtt: { format: 'vtt', size: 5, fileName: 'out.vtt', details: { cues: 2 } } } };
      await settle.complete(jobId, 'obj_main', result, { vtt: 'obj_vtt' });
      expect(await jobs.findById(jobId)).toMatchObject({ outputKey: 'obj_main', outputKeys: { vtt: 'obj_vtt' } });
      // Signed by the real local store: a URL of the file API for each key, with its own name and type.
      const signed = (key: string, name: string) => expect.stringMatching(new RegExp(`/v1/files/${key}\\?.*name=${name}.*&sig=`));
      expect((await webhooksOf(jobId))[0].job.result).toMatchObject({
        downloadUrl: signed('obj_main', 'out.webp'),
        outputs: {
          output: { downloadUrl: signed('obj_main', 'out.webp'), contentType: 'image/webp', fileName: 'out.webp' },
          vtt: { downloadUrl: signed('obj_vtt', 'out.vtt'), contentType: 'text/vtt', size: 5, cues: 2 },
        },
      });
    });

    it('complete without a file (a tool that writes none): downloadUrl, outputFormat and outputSize null, outputs {}', async () => {
      const { jobId } = await queuedJob({ webhookUrl: 'http://127.0.0.1:9/hook', plan: 'pro' });
      await start(jobId);
      await settle.complete(jobId, null, { message: 'Described.' });
      expect(await jobs.findById(jobId)).toMatchObject({ state: 'completed', outputKey: null, outputKeys: null });
      expect((await webhooksOf(jobId))[0].job.result).toEqual({
        status: 'done',
        outputFormat: null,
        downloadUrl: null,
        expiredAt: null,
        outputSize: null,
        outputs: {},
        message: 'Described.',
      });
    });

    it('fail: concurrent failures of one job refund it once and send one webhook', async () => {
      const { account, jobId } = await queuedJob({ webhookUrl: 'http://127.0.0.1:9/hook', plan: 'pro' });
      await start(jobId);
      await Promise.all([settle.fail(jobId, 'processing_failed', 'a'), settle.fail(jobId, 'processing_failed', 'b'), settle.fail(jobId, 'timeout', 'c')]);
      expect(await jobs.findById(jobId)).toMatchObject({ state: 'failed', refunded: true });
      expect(await refundsOf(jobId)).toBe(1);
      expect(await balanceOf(t, account.id)).toBe(10);
      expect(await webhookTypes(jobId)).toEqual([{ type: 'job.failed', jobId }]);
      expect(await settle.complete(jobId, newId('obj'), RESULT)).toBeUndefined();
      expect(await stateOf(jobId)).toBe('failed');
    });

    it('a consequence that throws stays pending, and the sweep delivers it after the grace period', async () => {
      const { jobId } = await queuedJob({ webhookUrl: 'http://127.0.0.1:9/hook', plan: 'pro' });
      await start(jobId);
      jest.spyOn(t.get(WebhooksService), 'emit').mockRejectedValueOnce(new Error('injected: webhook outbox down'));
      await settle.complete(jobId, newId('obj'), RESULT);
      expect(await webhookTypes(jobId)).toEqual([]);
      expect((await jobs.findConsequencesPending(queue.prefix, new Date(Date.now() + 3600_000), 100)).map((j) => j.id)).toContain(jobId);

      clock.at = new Date(Date.now() + CONSEQUENCES_GRACE_MS + 1000);
      await reconcile.sweep();
      expect(await webhookTypes(jobId)).toEqual([{ type: 'job.completed', jobId }]);
      expect((await jobs.findConsequencesPending(queue.prefix, new Date(Date.now() + 3600_000), 100)).map((j) => j.id)).not.toContain(jobId);
    });
  });

  describe('reconcile', () => {
    it('a job accepted but never enqueued (the API died in between) is enqueued at its fair-share rank', async () => {
      const { account } = await tenant(t, { credits: 10 });
      const admit = (tx: Parameters<JobAdmission['admitIn']>[0]) =>
        t.get(JobAdmission).admitIn(tx, { accountId: account.id, key: null, tool: TOOLS['image-resize'], input: { url: 'http://127.0.0.1:9/a.png' }, options: {} });
      const first = await t.get(Transactions).run(admit);
      const second = await t.get(Transactions).run(admit);
      const ids = [first, second].map((r) => (r.outcome === 'admitted' ? r.job.id : ''));
      await reconcile.sweep();
      expect(queue.added.map((a) => a.jobId)).not.toContain(ids[0]); // still within the grace period
      clock.at = new Date(Date.now() + 11_000);
      await reconcile.sweep();
      expect(queue.added.filter((a) => ids.includes(a.jobId)).map((a) => [a.jobId, a.fairShareRank])).toEqual([
        [ids[0], 0],
        [ids[1], 1],
      ]);
      expect((await jobs.findById(ids[0]))!.enqueuedAt).not.toBeNull();
    });

    it('a job of the API, written as enqueued at its commit, whose enqueue never happened (the API died in between) is queued after the grace period', async () => {
      const { account } = await tenant(t, { credits: 10 });
      const admitted = await t
        .get(Transactions)
        .run((tx) =>
          t
            .get(JobAdmission)
            .admitIn(tx, { accountId: account.id, key: null, tool: TOOLS['image-resize'], input: { url: 'http://127.0.0.1:9/a.png' }, options: {}, enqueueAtCommit: true }),
        );
      const id = admitted.outcome === 'admitted' ? admitted.job.id : '';
      expect((await jobs.findById(id))!.enqueuedAt).not.toBeNull(); // no write after the enqueue
      await reconcile.sweep();
      expect(queue.added.map((a) => a.jobId)).not.toContain(id); // still within the grace period
      clock.at = new Date(Date.now() + 11_000);
      await reconcile.sweep();
      expect(queue.added.filter((a) => a.jobId === id)).toHaveLength(1);
      expect(await jobs.findById(id)).toMatchObject({ state: 'queued' });
    });

    it('a running job the queue gave up on (its worker died) is failed and refunded once, however often swept', async () => {
      const { account, jobId } = await queuedJob();
      await start(jobId);
      queue.states.set(jobId, 'failed');
      clock.at = new Date(Date.now() + 11_000);
      await reconcile.sweep();
      await reconcile.sweep();
      expect(await jobs.findById(jobId)).toMatchObject({ state: 'failed', errorCode: 'processing_failed', refunded: true });
      expect(await refundsOf(jobId)).toBe(1);
      expect(await balanceOf(t, account.id)).toBe(10);
    });

    it('a job the queue lost (Redis restarted empty) is queued again, not failed', async () => {
      const { account, jobId } = await queuedJob();
      queue.added = [];
      queue.states.set(jobId, 'unknown');
      clock.at = new Date(Date.now() + 11_000);
      await reconcile.sweep();
      expect(queue.added.map((a) => a.jobId)).toContain(jobId);
      expect(await stateOf(jobId)).toBe('queued');
      expect(await balanceOf(t, account.id)).toBe(9);
    });
  });

  describe('drop arrival', () => {
    async function convertingDrop(accountId: string): Promise<Drop> {
      const id = newId('drp');
      const drops = t.get(DropsRepository);
      await drops.insert({
        id,
        accountId,
        slug: `lc-${id.slice(4).toLowerCase()}`,
        name: 'd',
        ...NEW_DROP_SETTINGS,
        allowedKinds: 'image',
        autoConvertTo: 'webp',
        webhookUrl: 'http://127.0.0.1:9/hook',
      });
      return (await drops.findById(id))!;
    }
    const png = () => ({ storageKey: newId('obj'), size: 100, mime: 'image/png', kind: 'image' as const, ext: 'png' });
    const conversionOf = async (submissionId: string) => (await db.query<{ id: string }[]>('SELECT id FROM jobs WHERE submission_id = $1', [submissionId]))[0]?.id;

    it('the conversion is admitted with the submission, queued, and its completion makes the submission ready', async () => {
      const { account } = await tenant(t, { credits: 10 });
      const drop = await convertingDrop(account.id);
      const submission = await t.get(IntakeService).createFromStored(drop, {}, 'photo.png', png());
      expect(submission.status).toBe('processing');
      const jobId = await conversionOf(submission.id);
      expect(queue.added.map((a) => a.jobId)).toContain(jobId);
      expect(await balanceOf(t, account.id)).toBe(9);

      await start(jobId);
      const outputKey = newId('obj');
      await settle.complete(jobId, outputKey, RESULT);
      expect(await t.get(SubmissionsRepository).findById(submission.id)).toMatchObject({ status: 'ready', processedKey: outputKey, processedFileName: 'photo.webp' });
      const processed = await db.query<{ body: string }[]>(
        `SELECT body FROM webhook_deliveries WHERE event_type = 'submission.processed' AND body::jsonb -> 'data' -> 'submission' ->> 'id' = $1`,
        [submission.id],
      );
      expect(processed.map((row) => JSON.parse(row.body).data.submission.status)).toEqual(['ready']);
    });

    it('a failed conversion refunds the owner once and marks the submission failed, the original kept', async () => {
      const { account } = await tenant(t, { credits: 10 });
      const drop = await convertingDrop(account.id);
      const submission = await t.get(IntakeService).createFromStored(drop, {}, 'photo.png', png());
      const jobId = await conversionOf(submission.id);
      await start(jobId);
      await settle.fail(jobId, 'unsupported_input', 'not an image after all');
      await settle.fail(jobId, 'unsupported_input', 'again');
      expect(await balanceOf(t, account.id)).toBe(10);
      expect(await refundsOf(jobId)).toBe(1);
      expect(await t.get(SubmissionsRepository).findById(submission.id)).toMatchObject({
        status: 'failed',
        processingError: { code: 'unsupported_input', message: 'not an image after all' },
      });
    });

    it('an owner without credits: the file is kept unconverted, nothing charged, no job', async () => {
      const { account } = await tenant(t, { credits: 0 });
      const drop = await convertingDrop(account.id);
      const submission = await t.get(IntakeService).createFromStored(drop, {}, 'photo.png', png());
      expect(submission).toMatchObject({ status: 'ready', processingError: { code: 'insufficient_credits' } });
      expect(await conversionOf(submission.id)).toBeUndefined();
      expect(await balanceOf(t, account.id)).toBe(0);
    });
  });
  describe('pipelines (jobs with steps)', () => {
    const refundLines = async (jobId: string) =>
      db.query<{ step: string; delta: number }[]>(`SELECT step, delta FROM credit_ledger WHERE job_id = $1 AND reason = 'job_refund' ORDER BY step`, [jobId]);
    const stepsOf = async (jobId: string) => new Map((await t.get(PipelinesRepository).findSteps([jobId])).map((s) => [s.stepName!, s]));

    /** web → small (reads web), thumb: three 1-credit steps of a fresh tenant with 10 credits. */
    async function queuedPipeline() {
      const { account, key } = await tenant(t, { credits: 10 });
      const plan = t.get(PipelineCheck).plan({
        web: { tool: 'image-convert', options: { format: 'webp' } },
        small: { tool: 'image-resize', input: 'web', options: { width: 10 } },
        thumb: { tool: 'image-thumbnail', options: { width: 32 } },
      });
      const answer = await t.get(SubmitJob).execute({
        account,
        key: { id: key.id, dailyCap: null, monthlyCap: null },
        tool: TOOLS['image-convert'],
        input: { url: 'http://127.0.0.1:9/a.png' },
        options: {},
        webhookUrl: null,
        pipeline: plan,
        stepOrder: ['web', 'small', 'thumb'],
      });
      const jobId = (answer.body as { id: string }).id;
      return { account, key, jobId, steps: await stepsOf(jobId) };
    }

    it('admission: one debit of the sum, one job in flight, only the steps reading the input are queued', async () => {
      const { account, jobId, steps } = await queuedPipeline();
      expect(await balanceOf(t, account.id)).toBe(7);
      const debits = await db.query(`SELECT delta FROM credit_ledger WHERE job_id = $1 AND reason = 'job_debit'`, [jobId]);
      expect(debits).toEqual([{ delta: -3 }]);
      expect((await jobs.countInFlight(db.manager, account.id)).all).toBe(1);
      expect(queue.added.map((a) => a.jobId).sort()).toEqual([steps.get('web')!.id, steps.get('thumb')!.id].sort());
      expect(steps.get('small')).toMatchObject({ stepBlocked: true, enqueuedAt: null });
    });

    it('a completed step hands its output to its reader, once however often its end is delivered', async () => {
      const { jobId, steps } = await queuedPipeline();
      const web = steps.get('web')!;
      await start(web.id);
      const outputKey = newId('obj');
      const done = await settle.complete(web.id, outputKey, RESULT);
      await settle.finished(done!); // a redelivery of the same consequences
      const small = (await stepsOf(jobId)).get('small')!;
      expect(small).toMatchObject({ stepBlocked: false, input: { storageKey: outputKey, fileName: 'out.webp' } });
      expect(queue.added.filter((a) => a.jobId === small.id)).toHaveLength(1);
      expect(await stateOf(jobId)).toBe('running');
    });

    it('a failed step fails its reader and refunds both, one line each; the job fails with it once the rest has ended', async () => {
      const { account, jobId, steps } = await queuedPipeline();
      await start(steps.get('thumb')!.id);
      await settle.fail(steps.get('web')!.id, 'unsupported_input', 'not an image');
      await settle.fail(steps.get('web')!.id, 'unsupported_input', 'again'); // refunded once
      expect((await stepsOf(jobId)).get('small')).toMatchObject({ state: 'failed', errorCode: 'upstream_failed', refunded: true });
      expect(await stateOf(jobId)).toBe('running'); // thumb still runs
      await settle.complete(steps.get('thumb')!.id, newId('obj'), RESULT);
      expect(await jobs.findById(jobId)).toMatchObject({ state: 'failed', errorCode: 'unsupported_input', refunded: false });
      expect(await refundLines(jobId)).toEqual([
        { step: 'small', delta: 1 },
        { step: 'web', delta: 1 },
      ]);
      expect(await balanceOf(t, account.id)).toBe(9); // thumb's credit stays spent
    });

    it('cancel while running: every step not ended is canceled and refunded; a running step cannot complete afterwards', async () => {
      const { account, key, jobId, steps } = await queuedPipeline();
      const web = steps.get('web')!;
      await start(web.id);
      const canceled = await cancel.execute(key.id, jobId);
      expect(canceled).toMatchObject({ state: 'canceled', refunded: true });
      expect(await balanceOf(t, account.id)).toBe(10);
      expect([...(await stepsOf(jobId)).values()].map((s) => s.state)).toEqual(['canceled', 'canceled', 'canceled']);
      expect(queue.removed).toContain(steps.get('thumb')!.id);
      expect(await settle.complete(web.id, newId('obj'), RESULT)).toBeUndefined();
      await expect(cancel.execute(key.id, jobId)).rejects.toMatchObject({ code: 'cannot_cancel' });
      expect((await refundLines(jobId)).length).toBe(3);
    });

    it('reconcile: a step whose end was never followed up (its worker died) moves the pipeline on at the next sweep', async () => {
      const { steps } = await queuedPipeline();
      const web = steps.get('web')!;
      await start(web.id);
      // The final write commits, then the worker dies before the consequences run.
      await jobs.complete(web.id, newId('obj'), RESULT, new Date());
      const small = steps.get('small')!;
      expect(queue.added.some((a) => a.jobId === small.id)).toBe(false);
      clock.at = new Date(Date.now() + CONSEQUENCES_GRACE_MS + 1000);
      await reconcile.sweep();
      expect(queue.added.filter((a) => a.jobId === small.id)).toHaveLength(1);
    });
  });
});
