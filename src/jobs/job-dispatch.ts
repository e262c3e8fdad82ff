import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccountsRepository } from '../accounts/accounts.repository';
import { Clock } from '../common/clock';
import { limitsOf } from '../config/plans';
import { Transactions } from '../database/transactions';
import { IdempotencyService } from './idempotency.service';
import { JobQueue } from './job-queue';
import { jobLogFields } from './job-log-fields';
import { JobRefunds } from './job-refunds';
import type { Job } from './job.entity';
import { JobsRepository, type RankedJob } from './jobs.repository';
import { enqueueFailed } from './lifecycle/job-errors';
import { PipelinesRepository } from './pipelines.repository';

/** A job to hand to the queue; a pipeline's entries are its steps that may run (admission and promotion return them). */
export type DispatchedJob = RankedJob & { firstSteps?: RankedJob[] };

/**
 * Hands committed jobs to the queue, at their fair-share rank (read in the statement that admitted,
 * promoted or found them): the request path's enqueue (withdrawn on failure), the intake's (left
 * to the sweeper on failure), and the slots that free when a job ends.
 */
@Injectable()
export class JobDispatch {
  private readonly logger = new Logger(JobDispatch.name);

  constructor(
    private readonly transactions: Transactions,
    private readonly accounts: AccountsRepository,
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly refunds: JobRefunds,
    private readonly idempotency: IdempotencyService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * The jobs API's enqueue. If the queue refuses, the row is removed and the credits come back
   * before answering `enqueue_failed`. `connection`: the one holding the idempotency key's lock.
   */
  async enqueueOrWithdraw(job: DispatchedJob, connection?: EntityManager): Promise<void> {
    // A pipeline has no queue entry of its own: its first steps have.
    const entries = job.steps ? (job.firstSteps ?? []) : [job];
    try {
      for (const entry of entries) await this.queue.add(entry.queue, entry.id, entry.fairShareRank);
    } catch (err) {
      await this.withdraw(job.id, connection);
      this.logger.error({ jobId: job.id, err: (err as Error).message }, 'Job could not be queued: withdrawn and refunded');
      throw enqueueFailed();
    }
    // Admitted with `enqueueAtCommit`, the rows say so already.
    for (const entry of entries) if (!entry.enqueuedAt) await this.jobs.markEnqueued(entry.id, this.clock.now(), connection);
    this.logger.log({ jobId: job.id, tool: job.tool, queue: job.queue, steps: job.steps?.length }, 'Job queued');
  }

  /** A drop intake's enqueue: a queue that is down leaves the job to the sweeper (ReconcileJobs). */
  async enqueueOrLeave(job: Job & { fairShareRank?: number; firstSteps?: RankedJob[] }): Promise<void> {
    if (job.steps && !job.waitingForSlot) {
      for (const step of job.firstSteps ?? []) await this.enqueueOrLeave(step);
      return;
    }
    if (job.waitingForSlot) {
      this.logger.log({ jobId: job.id, accountId: job.accountId }, 'Job waits for a slot of its account');
      // A job of the account that ended while this one was admitted may not have seen it waiting
      // (its final write reads the waiting jobs: SettleJob.settle), so look once more now it is committed.
      await this.promoteWaiting(job.accountId).catch((err: Error) => this.logger.warn(`Promoting waiting jobs of ${job.accountId} failed: ${err.message}`));
      return;
    }
    try {
      await this.queue.add(job.queue, job.id, job.fairShareRank ?? 0);
      await this.jobs.markEnqueued(job.id, this.clock.now());
      this.logger.log({ ...jobLogFields(job), queue: job.queue }, 'Job queued');
    } catch (err) {
      this.logger.warn({ ...jobLogFields(job), err: (err as Error).message }, 'Job not queued yet; the sweeper will');
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
      const free = limitsOf(account.plan).inFlightJobs - (await this.jobs.countInFlight(tx, accountId)).all;
      const taken: DispatchedJob[] = free > 0 ? await this.jobs.takeSlots(tx, accountId, free) : [];
      // A pipeline's slot lets the steps that read its input run.
      for (const job of taken) if (job.steps) job.firstSteps = await this.pipelines.unblockFirstSteps(tx, job.id);
      return taken;
    });
    for (const job of promoted) await this.enqueueOrLeave(job);
  }

  /** Refund and remove a job the queue never took: no orphan row, credits back, ledger balanced. */
  private async withdraw(jobId: string, connection?: EntityManager): Promise<void> {
    const work = async (tx: EntityManager) => {
      await this.refunds.refundOnce(tx, jobId);
      await this.jobs.delete(tx, jobId);
      // A recorded idempotent answer would otherwise replay a job that no longer exists.
      await this.idempotency.forget(tx, jobId);
    };
    await (connection ? connection.transaction(work) : this.transactions.run(work));
  }
}
