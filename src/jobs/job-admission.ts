import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { limitsOf } from '../config/plans';
import { CreditsService } from '../credits/credits.service';
import type { Db } from '../database/sql';
import { Transactions } from '../database/transactions';
import type { ToolDefinition } from '../tools/tool-registry';
import { IdempotencyService, type IdempotentRequest, type StoredResponse } from './idempotency.service';
import { JobQueue } from './job-queue';
import type { Job, JobInput } from './job.entity';
import { JobsRepository } from './jobs.repository';

export interface Admission {
  accountId: string;
  /** The submitting key, whose spend caps apply; null for a drop's auto-conversion. */
  key: { id: string; dailyCap: number | null; monthlyCap: number | null } | null;
  tool: ToolDefinition;
  input: JobInput;
  options: Record<string, unknown>;
  webhookUrl?: string | null;
  submissionId?: string | null;
  /**
   * Drop auto-conversion: the sender is never refused because the owner is busy. Over the owner's
   * in-flight limit the job is admitted and paid but waits for a slot (promoteWaiting) before it is queued.
   */
  waitForSlot?: boolean;
  /** Recorded in the job's transaction; needs `key`. */
  idempotency?: IdempotentRequest;
}

export type AdmissionResult =
  | { outcome: 'admitted'; job: Job }
  /** Nothing was written: 402 insufficient_credits or spend_cap_reached, 429 concurrency_exceeded. */
  | { outcome: 'refused'; error: ApiError }
  /** A twin with the same idempotency key was admitted first: its answer, nothing written. */
  | { outcome: 'replay'; response: StoredResponse };

/**
 * Admits a job in one transaction and enqueues it. The transaction locks the account row first,
 * so an account's admissions queue up and every check sees exact numbers; it checks everything
 * (twin, balance, spend caps, in-flight limit) before it writes anything (idempotency record,
 * debit and ledger row, job row), so a refusal needs no undo.
 */
@Injectable()
export class JobAdmission {
  private readonly logger = new Logger(JobAdmission.name);

  constructor(
    private readonly transactions: Transactions,
    private readonly accounts: AccountsRepository,
    private readonly jobs: JobsRepository,
    private readonly credits: CreditsService,
    private readonly idempotency: IdempotencyService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  /** Admit, then enqueue; an enqueue failure withdraws the job and is 500 enqueue_failed. */
  async admit(a: Admission): Promise<AdmissionResult> {
    const result = await this.transactions.run((tx) => this.admitIn(tx, a));
    if (result.outcome === 'admitted') await this.enqueueOrWithdraw(result.job);
    return result;
  }

  /** The admission transaction's work, for callers that add their own rows to it (drop intake). */
  async admitIn(tx: Db, a: Admission): Promise<AdmissionResult> {
    const now = this.clock.now();
    const account = await this.accounts.lockForAdmission(tx, a.accountId);
    if (!account) throw new Error(`Account ${a.accountId} does not exist`);
    if (a.idempotency && a.key) {
      // Under the lock a twin has either committed or rolled back: its record is final.
      const response = await this.idempotency.replay(a.key.id, a.idempotency, now, tx);
      if (response) return { outcome: 'replay', response };
    }
    const refusal = await this.refusal(tx, a, account, now);
    const overLimit = refusal?.code === 'concurrency_exceeded' && a.waitForSlot;
    if (refusal && !overLimit) return { outcome: 'refused', error: refusal };

    const id = newId('job');
    if (a.idempotency && a.key) {
      const response = { status: 202, body: { id, state: 'queued', statusUrl: `/v1/jobs/${id}` } };
      if (!(await this.idempotency.record(tx, a.key.id, a.idempotency, response, now))) throw new Error('Idempotency key taken under the account lock');
    }
    await this.credits.debit(tx, { accountId: a.accountId, apiKeyId: a.key?.id ?? null, jobId: id, cost: a.tool.cost });
    const job = await this.jobs.insert(tx, {
      id,
      accountId: a.accountId,
      apiKeyId: a.key?.id ?? null,
      tool: a.tool.slug,
      queue: a.tool.queue,
      input: a.input,
      options: a.options,
      webhookUrl: a.webhookUrl ?? null,
      cost: a.tool.cost,
      submissionId: a.submissionId ?? null,
      queuePrefix: this.queue.prefix,
      waitingForSlot: Boolean(overLimit),
    });
    return { outcome: 'admitted', job };
  }

  /**
   * Hands a committed job to the queue. If the queue refuses, the row is removed and the credits
   * come back before answering 500 `enqueue_failed`.
   */
  async enqueueOrWithdraw(job: Job): Promise<void> {
    try {
      await this.queue.add(job.queue, job.id);
    } catch (err) {
      await this.withdraw(job.id);
      this.logger.error({ jobId: job.id, err: (err as Error).message }, 'Job could not be queued: withdrawn and refunded');
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'enqueue_failed', 'The job could not be queued; no credits were charged. Retry later.');
    }
    await this.jobs.markEnqueued(job.id, this.clock.now());
    this.logger.log({ jobId: job.id, tool: job.tool, queue: job.queue }, 'Job queued');
  }

  /** Hands a committed job to the queue, or leaves it to the sweeper (JobSweeper) when the queue is down. */
  async enqueueOrLeave(job: Job): Promise<void> {
    if (job.waitingForSlot) {
      this.logger.log({ jobId: job.id, accountId: job.accountId }, 'Job waits for a slot of its account');
      // A job of the account that ended while this one was admitted may not have seen it waiting
      // (its final write reads the waiting jobs: JobEvents.settle), so look once more now it is committed.
      await this.promoteWaiting(job.accountId).catch((err: Error) => this.logger.warn(`Promoting waiting jobs of ${job.accountId} failed: ${err.message}`));
      return;
    }
    try {
      await this.queue.add(job.queue, job.id);
      await this.jobs.markEnqueued(job.id, this.clock.now());
      this.logger.log({ jobId: job.id, tool: job.tool, queue: job.queue }, 'Job queued');
    } catch (err) {
      this.logger.warn({ jobId: job.id, err: (err as Error).message }, 'Job not queued yet; the sweeper will');
    }
  }

  /**
   * After one of the account's jobs ended (or by the sweeper): hands waiting jobs the slots now free,
   * oldest first, under the account lock that admissions take, so the limit is never exceeded.
   */
  async promoteWaiting(accountId: string): Promise<void> {
    const promoted = await this.transactions.run(async (tx) => {
      const account = await this.accounts.lockForAdmission(tx, accountId);
      if (!account) return [];
      const free = limitsOf(account.plan).inFlightJobs - (await this.jobs.countInFlight(tx, accountId));
      return free > 0 ? this.jobs.takeSlots(tx, accountId, free) : [];
    });
    for (const job of promoted) await this.enqueueOrLeave(job);
  }

  /** Refund and remove a job the queue never took: no orphan row, credits back, ledger balanced. */
  private async withdraw(jobId: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      await this.credits.refund(jobId, tx);
      await this.jobs.delete(tx, jobId);
      // A recorded idempotent answer would otherwise replay a job that no longer exists.
      await this.idempotency.forget(tx, jobId);
    });
  }

  private async refusal(tx: Db, a: Admission, account: { balance: number; plan: string }, now: Date): Promise<ApiError | undefined> {
    const cost = a.tool.cost;
    if (account.balance < cost) {
      return new ApiError(HttpStatus.PAYMENT_REQUIRED, 'insufficient_credits', `This job costs ${cost} credit${cost === 1 ? '' : 's'}; the balance is ${account.balance}.`);
    }
    if (a.key && (a.key.dailyCap !== null || a.key.monthlyCap !== null)) {
      const spent = await this.credits.spentThisDayAndMonth(tx, a.key.id, now);
      for (const [cap, used, period] of [
        [a.key.dailyCap, spent.day, 'daily'],
        [a.key.monthlyCap, spent.month, 'monthly'],
      ] as const) {
        if (cap !== null && used + cost > cap) {
          return new ApiError(
            HttpStatus.PAYMENT_REQUIRED,
            'spend_cap_reached',
            `This key's ${period} spend cap of ${cap} credits would be exceeded: ${used} spent, this job costs ${cost}.`,
          );
        }
      }
    }
    const limit = limitsOf(account.plan).inFlightJobs;
    if ((await this.jobs.countInFlight(tx, a.accountId)) >= limit) {
      // Every 429 carries Retry-After (declared on each 429 of the contract); a slot frees when a job
      // ends, which cannot be predicted: 1 s is the shortest honest wait.
      return new ApiError(
        HttpStatus.TOO_MANY_REQUESTS,
        'concurrency_exceeded',
        `Too many jobs in flight: the ${account.plan} plan allows ${limit} queued or running jobs at once.`,
        undefined,
        { 'Retry-After': 1 },
      );
    }
    return undefined;
  }
}
