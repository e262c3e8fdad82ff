import { DataSource } from 'typeorm';
import type { Account } from '../../src/accounts/account.entity';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { IdempotencyService } from '../../src/jobs/idempotency.service';
import { JobRefunds } from '../../src/jobs/job-refunds';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { type SubmitJobCommand, SubmitJob } from '../../src/jobs/use-cases/submit-job';
import { Transactions } from '../../src/database/transactions';
import { TOOLS } from '../../src/tools/tool-registry';
import { JobsModule } from '../../src/jobs/jobs.module';
import { balanceOf, newServiceTest, tenant, type ServiceTest, type TestClock } from './service-test';
import { mediaQueue } from './stand-ins';

const resize = TOOLS['image-resize']; // 1 credit
const video = TOOLS['video-convert']; // 5 credits

type Answer = { status: number; body: { id: string; state: string; statusUrl: string } };

/** POST /v1/jobs's use case (docs/decisions.md §7) on the real Postgres: debit, refund once, caps, in-flight limit, fair share, idempotent twins. */
describe('SubmitJob', () => {
  let module: ServiceTest;
  let clock: TestClock;
  let submit: SubmitJob;
  let refunds: JobRefunds;
  let jobs: JobsRepository;
  let db: DataSource;
  const queue = mediaQueue().value;

  beforeAll(async () => {
    module = await newServiceTest({ modules: [JobsModule], standIns: [mediaQueue(queue)] });
    clock = module.clock;
    submit = module.get(SubmitJob);
    refunds = module.get(JobRefunds);
    jobs = module.get(JobsRepository);
    db = module.get(DataSource);
  });
  afterAll(() => module.close());
  afterEach(() => {
    clock.at = undefined;
    queue.reset();
  });

  const command = (account: Pick<Account, 'id' | 'plan'>, key: { id: string; dailyCap: number | null; monthlyCap: number | null }, tool = resize): SubmitJobCommand => ({
    account,
    key: { id: key.id, dailyCap: key.dailyCap, monthlyCap: key.monthlyCap },
    tool,
    input: { url: 'http://127.0.0.1:9/a.png' },
    options: { width: 10 },
    webhookUrl: null,
  });
  const run = (c: SubmitJobCommand) => submit.execute(c) as Promise<Answer>;
  const outcome = (c: SubmitJobCommand) =>
    run(c).then(
      () => 'admitted',
      (err: Error & { code?: string }) => err.code ?? err.message,
    );
  const refund = (jobId: string) => module.get(Transactions).run((tx) => refunds.refundOnce(tx, jobId));
  const ledger = async (accountId: string) =>
    await db.query<{ reason: string; delta: number; jobId: string }[]>('SELECT reason, delta, job_id AS "jobId" FROM credit_ledger WHERE account_id = $1 ORDER BY id', [accountId]);
  const jobsOf = (accountId: string) => db.query<{ id: string }[]>('SELECT id FROM jobs WHERE account_id = $1', [accountId]);

  describe('debit and refund', () => {
    it('debits the cost with a ledger row in the job transaction, and queues the job once', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const answer = await run(command(account, key, video));
      expect(answer).toEqual({ status: 202, body: { id: answer.body.id, state: 'queued', statusUrl: `/v1/jobs/${answer.body.id}` } });
      expect(await balanceOf(module, account.id)).toBe(5);
      expect(await ledger(account.id)).toEqual([{ reason: 'job_debit', delta: -5, jobId: answer.body.id }]);
      expect(queue.added.filter((a) => a.jobId === answer.body.id)).toHaveLength(1);
      expect((await jobs.findById(answer.body.id))!.enqueuedAt).not.toBeNull();
    });

    it('refuses insufficient_credits without writing anything', async () => {
      const { account, key } = await tenant(module, { credits: 4 });
      await expect(run(command(account, key, video))).rejects.toMatchObject({ code: 'insufficient_credits', message: 'This job costs 5 credits; the balance is 4.' });
      expect(await balanceOf(module, account.id)).toBe(4);
      expect(await ledger(account.id)).toEqual([]);
      expect(await jobsOf(account.id)).toEqual([]);
    });

    it('refunds a job once, however often and however concurrently it is asked to', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const { body } = await run(command(account, key, video));
      const results = await Promise.all([refund(body.id), refund(body.id), refund(body.id)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await refund(body.id)).toBe(false);
      expect(await balanceOf(module, account.id)).toBe(10);
      expect((await ledger(account.id)).map((e) => [e.reason, e.delta])).toEqual([
        ['job_debit', -5],
        ['job_refund', 5],
      ]);
    });

    it('a refund inside a rolled-back transaction leaves the job refundable', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const { body } = await run(command(account, key));
      await expect(
        module.get(Transactions).run(async (tx) => {
          await refunds.refundOnce(tx, body.id);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(await refund(body.id)).toBe(true);
      expect(await balanceOf(module, account.id)).toBe(10);
    });

    it('an enqueue the queue refuses withdraws the job: enqueue_failed, no row, credits back', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      queue.failNext(1);
      await expect(run(command(account, key))).rejects.toMatchObject({ code: 'enqueue_failed' });
      expect(await jobsOf(account.id)).toEqual([]);
      expect(await balanceOf(module, account.id)).toBe(10);
      expect((await ledger(account.id)).map((e) => e.reason)).toEqual(['job_debit', 'job_refund']);
    });
  });

  describe('spend caps', () => {
    it('daily cap: refuses the job that would exceed it, is not reopened by a refund, and opens again the next UTC day', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { dailyCap: 2 } });
      clock.at = new Date('2031-03-10T10:00:00Z');
      const first = await run(command(account, key));
      expect(await outcome(command(account, key))).toBe('admitted');
      await expect(run(command(account, key))).rejects.toMatchObject({ code: 'spend_cap_reached', message: expect.stringContaining('daily spend cap of 2') });

      // Caps count debits only (docs/decisions.md): a refund gives the credits back, not the cap.
      await refund(first.body.id);
      expect(await outcome(command(account, key))).toBe('spend_cap_reached');

      clock.at = new Date('2031-03-11T00:00:00Z');
      expect(await outcome(command(account, key))).toBe('admitted');
      expect(await balanceOf(module, account.id)).toBe(100 - 2);
    });

    it('monthly cap: spending on several days adds up; the next UTC month starts afresh', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { monthlyCap: 10 } });
      clock.at = new Date('2031-04-01T00:00:00Z');
      expect(await outcome(command(account, key, video))).toBe('admitted');
      clock.at = new Date('2031-04-30T23:59:59Z');
      expect(await outcome(command(account, key, video))).toBe('admitted');
      await expect(run(command(account, key))).rejects.toMatchObject({ code: 'spend_cap_reached', message: expect.stringContaining('monthly spend cap of 10') });
      clock.at = new Date('2031-05-01T00:00:00Z');
      expect(await outcome(command(account, key, video))).toBe('admitted');
    });

    it('a cap is per key: another key of the account spends freely', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { dailyCap: 1 } });
      const { key: other } = await module.get(ApiKeysService).create({ accountId: account.id, scopes: ['image:write'] });
      clock.at = new Date('2031-06-15T12:00:00Z');
      expect(await outcome(command(account, key))).toBe('admitted');
      expect(await outcome(command(account, key))).toBe('spend_cap_reached');
      expect(await outcome(command(account, other))).toBe('admitted');
    });
  });

  describe('in-flight limit and fair share', () => {
    it('admits exactly the plan limit of concurrent submissions (free: 2), and one more once a job ends', async () => {
      const { account, key } = await tenant(module, { plan: 'free', credits: 100 });
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => run(command(account, key))));
      const admitted = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
      expect(admitted).toHaveLength(2);
      for (const r of results.filter((r) => r.status === 'rejected')) expect(r.reason).toMatchObject({ code: 'concurrency_exceeded', retryAfterSeconds: 1 });
      expect(await balanceOf(module, account.id)).toBe(98);

      await module.get(Transactions).run((tx) => jobs.fail(tx, admitted[0].body.id, 'processing_failed', 'x', new Date()));
      expect(await outcome(command(account, key))).toBe('admitted');
      expect(await outcome(command(account, key))).toBe('concurrency_exceeded');
    });

    it("ranks each job behind its account's jobs in flight on the same queue, read in the admission transaction", async () => {
      const a = await tenant(module, { credits: 100 });
      const b = await tenant(module, { credits: 100 });
      const a1 = await run(command(a.account, a.key));
      const a2 = await run(command(a.account, a.key));
      const aVideo = await run(command(a.account, a.key, video));
      const b1 = await run(command(b.account, b.key));
      const rank = (answer: Answer) => queue.added.find((x) => x.jobId === answer.body.id)!.fairShareRank;
      expect([rank(a1), rank(a2), rank(aVideo), rank(b1)]).toEqual([0, 1, 0, 0]);
    });
  });

  describe('idempotency', () => {
    const keyed = (c: SubmitJobCommand, key: string, body: Record<string, unknown> = { tool: 'image-resize' }) => ({
      ...c,
      idempotency: module.get(IdempotencyService).request({ ...body, idempotencyKey: key }, undefined)!,
    });

    it('concurrent twins: one job, one debit; every other twin answers the same 202', async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      const answers = await Promise.all(Array.from({ length: 5 }, () => run(keyed(command(account, key), 'twin-1'))));
      const id = answers[0].body.id;
      for (const a of answers) expect(a).toEqual({ status: 202, body: { id, state: 'queued', statusUrl: `/v1/jobs/${id}` } });
      expect(await balanceOf(module, account.id)).toBe(99);
      expect(await jobsOf(account.id)).toHaveLength(1);
      expect(queue.added.filter((a) => a.jobId === id)).toHaveLength(1);
    });

    it("a twin waits on the key's lock until the first one's job is queued, then replays it", async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      const gate = queue.holdNext();
      const first = run(keyed(command(account, key), 'slow-enqueue'));
      await gate.reached;
      let twinAnswered = false;
      const twin = run(keyed(command(account, key), 'slow-enqueue')).finally(() => (twinAnswered = true));
      // The first job is committed but not yet queued: the twin must not answer with it yet.
      await new Promise((r) => setImmediate(r));
      await db.query('SELECT pg_sleep(0.2)');
      expect(twinAnswered).toBe(false);
      gate.release();
      const [a, b] = await Promise.all([first, twin]);
      expect(b).toEqual(a);
      expect(await jobsOf(account.id)).toHaveLength(1);
    });

    it('a twin of a request whose enqueue failed is admitted on its own: one job, one debit', async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      const gate = queue.holdNext({ fail: true });
      const first = run(keyed(command(account, key), 'failed-first'));
      await gate.reached;
      const twin = run(keyed(command(account, key), 'failed-first'));
      gate.release();
      await expect(first).rejects.toMatchObject({ code: 'enqueue_failed' });
      const answer = await twin;
      expect(answer.status).toBe(202);
      expect((await jobsOf(account.id)).map((j) => j.id)).toEqual([answer.body.id]);
      expect(await balanceOf(module, account.id)).toBe(99);
    });

    it('the same key with another body is idempotency_conflict; after 24 h the key is free again', async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      clock.at = new Date('2031-07-01T08:00:00Z');
      expect(await outcome(keyed(command(account, key), 'k', { tool: 'image-resize', options: { width: 10 } }))).toBe('admitted');
      const other = keyed(command(account, key), 'k', { tool: 'image-resize', options: { width: 11 } });
      await expect(run(other)).rejects.toMatchObject({ code: 'idempotency_conflict' });
      clock.at = new Date('2031-07-02T08:00:00.001Z');
      expect(await outcome(other)).toBe('admitted');
      expect(await balanceOf(module, account.id)).toBe(98);
    });

    it('a refused request records nothing: the same key may be retried', async () => {
      const { account, key } = await tenant(module, { credits: 0 });
      expect(await outcome(keyed(command(account, key), 'retry-me'))).toBe('insufficient_credits');
      await module.get(AccountsRepository).grant(account.id, 1);
      expect(await outcome(keyed(command(account, key), 'retry-me'))).toBe('admitted');
    });
  });
});
