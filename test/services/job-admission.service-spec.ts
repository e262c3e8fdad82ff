import type { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { CreditsService } from '../../src/credits/credits.service';
import { IdempotencyService } from '../../src/jobs/idempotency.service';
import { type Admission, JobAdmission } from '../../src/jobs/job-admission';
import { JobQueue } from '../../src/jobs/job-queue';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { Transactions } from '../../src/database/transactions';
import { TOOLS } from '../../src/tools/tool-registry';
import { balanceOf, serviceModule, tenant, type TestClock } from './service-module';

const resize = TOOLS['image-resize']; // 1 credit
const video = TOOLS['video-convert']; // 5 credits

/** Admission rules (docs/decisions.md §7) on the real Postgres: debit, refund once, caps, in-flight limit, idempotent twins. */
describe('JobAdmission and CreditsService', () => {
  let module: TestingModule;
  let clock: TestClock;
  let admission: JobAdmission;
  let credits: CreditsService;
  let jobs: JobsRepository;
  let db: DataSource;
  const queued: string[] = [];

  beforeAll(async () => {
    const queue = { prefix: 'bull:services-test', add: async (_q: string, id: string) => void queued.push(id), remove: async () => undefined };
    ({ module, clock } = await serviceModule([JobAdmission, CreditsService, IdempotencyService, { provide: JobQueue, useValue: queue }]));
    admission = module.get(JobAdmission);
    credits = module.get(CreditsService);
    jobs = module.get(JobsRepository);
    db = module.get(DataSource);
  });
  afterAll(() => module.close());
  afterEach(() => (clock.at = undefined));

  const request = (accountId: string, key: Admission['key'], tool = resize): Admission => ({
    accountId,
    key,
    tool,
    input: { url: 'http://127.0.0.1:9/a.png' },
    options: { width: 10 },
  });
  const keyOf = (k: { id: string; dailyCap: number | null; monthlyCap: number | null }) => ({ id: k.id, dailyCap: k.dailyCap, monthlyCap: k.monthlyCap });
  const ledger = async (accountId: string) =>
    await db.query<{ reason: string; delta: number; jobId: string }[]>('SELECT reason, delta, job_id AS "jobId" FROM credit_ledger WHERE account_id = $1 ORDER BY id', [accountId]);

  describe('debit and refund', () => {
    it('debits the cost with a ledger row in the job transaction, and queues the job', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const result = await admission.admit(request(account.id, keyOf(key), video));
      expect(result.outcome).toBe('admitted');
      const job = (result as { job: { id: string } }).job;
      expect(await balanceOf(module, account.id)).toBe(5);
      expect(await ledger(account.id)).toEqual([{ reason: 'job_debit', delta: -5, jobId: job.id }]);
      expect(queued).toContain(job.id);
      expect((await jobs.findById(job.id))!.enqueuedAt).not.toBeNull();
    });

    it('refuses 402 insufficient_credits without writing anything', async () => {
      const { account, key } = await tenant(module, { credits: 4 });
      const result = await admission.admit(request(account.id, keyOf(key), video));
      expect(result).toMatchObject({ outcome: 'refused', error: { code: 'insufficient_credits', status: 402 } });
      expect(await balanceOf(module, account.id)).toBe(4);
      expect(await ledger(account.id)).toEqual([]);
      expect(await db.query('SELECT id FROM jobs WHERE account_id = $1', [account.id])).toEqual([]);
    });

    it('refunds a job once, however often and however concurrently it is asked to', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const { job } = (await admission.admit(request(account.id, keyOf(key), video))) as { job: { id: string } };
      const results = await Promise.all([credits.refund(job.id), credits.refund(job.id), credits.refund(job.id)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await credits.refund(job.id)).toBe(false);
      expect(await balanceOf(module, account.id)).toBe(10);
      expect((await ledger(account.id)).map((e) => [e.reason, e.delta])).toEqual([
        ['job_debit', -5],
        ['job_refund', 5],
      ]);
    });

    it('a refund inside a rolled-back transaction leaves the job refundable', async () => {
      const { account, key } = await tenant(module, { credits: 10 });
      const { job } = (await admission.admit(request(account.id, keyOf(key)))) as { job: { id: string } };
      await expect(
        module.get(Transactions).run(async (tx) => {
          await credits.refund(job.id, tx);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(await credits.refund(job.id)).toBe(true);
      expect(await balanceOf(module, account.id)).toBe(10);
    });
  });

  describe('spend caps', () => {
    it('daily cap: refuses the job that would exceed it, is not reopened by a refund, and opens again the next UTC day', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { dailyCap: 2 } });
      clock.at = new Date('2031-03-10T10:00:00Z');
      const first = (await admission.admit(request(account.id, keyOf(key)))) as { job: { id: string } };
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('admitted');
      const third = await admission.admit(request(account.id, keyOf(key)));
      expect(third).toMatchObject({ outcome: 'refused', error: { code: 'spend_cap_reached', status: 402 } });
      expect((third as { error: Error }).error.message).toContain('daily spend cap of 2');

      // Caps count debits only (docs/decisions.md): a refund gives the credits back, not the cap.
      await credits.refund(first.job.id);
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('refused');

      clock.at = new Date('2031-03-11T00:00:00Z');
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('admitted');
      expect(await balanceOf(module, account.id)).toBe(100 - 2);
    });

    it('monthly cap: spending on several days adds up; the next UTC month starts afresh', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { monthlyCap: 10 } });
      clock.at = new Date('2031-04-01T00:00:00Z');
      expect((await admission.admit(request(account.id, keyOf(key), video))).outcome).toBe('admitted');
      clock.at = new Date('2031-04-30T23:59:59Z');
      expect((await admission.admit(request(account.id, keyOf(key), video))).outcome).toBe('admitted');
      const over = await admission.admit(request(account.id, keyOf(key)));
      expect(over).toMatchObject({ outcome: 'refused', error: { code: 'spend_cap_reached' } });
      expect((over as { error: Error }).error.message).toContain('monthly spend cap of 10');
      clock.at = new Date('2031-05-01T00:00:00Z');
      expect((await admission.admit(request(account.id, keyOf(key), video))).outcome).toBe('admitted');
    });

    it('a cap is per key: another key of the account spends freely', async () => {
      const { account, key } = await tenant(module, { credits: 100, key: { dailyCap: 1 } });
      const { key: other } = await module.get(ApiKeysService).create({ accountId: account.id, scopes: ['image:write'] });
      clock.at = new Date('2031-06-15T12:00:00Z');
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('admitted');
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('refused');
      expect((await admission.admit(request(account.id, keyOf(other)))).outcome).toBe('admitted');
    });
  });

  describe('in-flight limit', () => {
    it('admits exactly the plan limit of concurrent submissions (free: 2), and one more once a job ends', async () => {
      const { account, key } = await tenant(module, { plan: 'free', credits: 100 });
      const results = await Promise.all(Array.from({ length: 6 }, () => admission.admit(request(account.id, keyOf(key)))));
      const admitted = results.filter((r) => r.outcome === 'admitted') as { job: { id: string } }[];
      expect(admitted).toHaveLength(2);
      for (const r of results.filter((r) => r.outcome === 'refused')) expect(r).toMatchObject({ error: { code: 'concurrency_exceeded', status: 429 } });
      expect(await balanceOf(module, account.id)).toBe(98);

      await module.get(Transactions).run((tx) => jobs.fail(tx, admitted[0].job.id, 'processing_failed', 'x', new Date()));
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('admitted');
      expect((await admission.admit(request(account.id, keyOf(key)))).outcome).toBe('refused');
    });

    it('a drop auto-conversion over the limit is admitted and paid, but waits for a slot', async () => {
      const { account } = await tenant(module, { plan: 'free', credits: 100 });
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await admission.admit({ ...request(account.id, null), waitForSlot: true }));
      expect(results.map((r) => r.outcome)).toEqual(['admitted', 'admitted', 'admitted', 'admitted']);
      expect(results.map((r) => (r as { job: { waitingForSlot: boolean } }).job.waitingForSlot)).toEqual([false, false, true, true]);
      expect(await balanceOf(module, account.id)).toBe(96);
    });
  });

  describe('idempotency', () => {
    it('concurrent twins: one job, one debit; every other twin replays its answer', async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      const idempotency = module.get(IdempotencyService).request({ tool: 'image-resize', idempotencyKey: 'twin-1' }, undefined)!;
      const results = await Promise.all(Array.from({ length: 5 }, () => admission.admit({ ...request(account.id, keyOf(key)), idempotency })));
      const admitted = results.filter((r) => r.outcome === 'admitted') as { job: { id: string } }[];
      expect(admitted).toHaveLength(1);
      const replays = results.filter((r) => r.outcome === 'replay') as { response: { status: number; body: { id: string } } }[];
      expect(replays).toHaveLength(4);
      for (const r of replays) expect(r.response).toEqual({ status: 202, body: { id: admitted[0].job.id, state: 'queued', statusUrl: `/v1/jobs/${admitted[0].job.id}` } });
      expect(await balanceOf(module, account.id)).toBe(99);
      expect(await db.query('SELECT id FROM jobs WHERE account_id = $1', [account.id])).toHaveLength(1);
    });

    it('the same key with another body is 409 idempotency_conflict; after 24 h the key is free again', async () => {
      const { account, key } = await tenant(module, { credits: 100 });
      const service = module.get(IdempotencyService);
      clock.at = new Date('2031-07-01T08:00:00Z');
      const first = service.request({ tool: 'image-resize', options: { width: 10 }, idempotencyKey: 'k' }, undefined)!;
      expect((await admission.admit({ ...request(account.id, keyOf(key)), idempotency: first })).outcome).toBe('admitted');
      const other = service.request({ tool: 'image-resize', options: { width: 11 } }, 'k')!;
      await expect(admission.admit({ ...request(account.id, keyOf(key)), idempotency: other })).rejects.toMatchObject({ code: 'idempotency_conflict', status: 409 });
      clock.at = new Date('2031-07-02T08:00:00.001Z');
      expect((await admission.admit({ ...request(account.id, keyOf(key)), idempotency: other })).outcome).toBe('admitted');
      expect(await balanceOf(module, account.id)).toBe(98);
    });

    it('a refused request records nothing: the same key may be retried', async () => {
      const { account, key } = await tenant(module, { credits: 0 });
      const idempotency = module.get(IdempotencyService).request({ tool: 'image-resize', idempotencyKey: 'retry-me' }, undefined)!;
      expect((await admission.admit({ ...request(account.id, keyOf(key)), idempotency })).outcome).toBe('refused');
      await module.get(AccountsRepository).grant(account.id, 1);
      expect((await admission.admit({ ...request(account.id, keyOf(key)), idempotency })).outcome).toBe('admitted');
    });
  });
});
