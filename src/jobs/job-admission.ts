import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ApiError } from '../common/api-error';
import { newId } from '../common/ids';
import { limitsOf } from '../config/plans';
import { CreditsService } from '../credits/credits.service';
import type { ToolDefinition } from '../tools/tool-registry';
import { JobQueue } from './job-queue';
import { Job } from './job.entity';

export interface Admission {
  accountId: string;
  plan: string;
  /** The submitting key, whose spend caps apply; null for a drop's auto-conversion. */
  key: { id: string; dailyCap: number | null; monthlyCap: number | null } | null;
  tool: ToolDefinition;
  input: { url?: string; fileId?: string };
  options: Record<string, unknown>;
  webhookUrl?: string | null;
  submissionId?: string | null;
  /** Drop auto-conversion is started by the service, not the client: the in-flight limit does not apply. */
  skipConcurrencyLimit?: boolean;
  /** Runs inside the admission transaction, after the job row exists (idempotency records). */
  inTransaction?: (tx: import('typeorm').EntityManager, job: Job) => Promise<void>;
}

/**
 * Admits a job in one transaction — debit (402 insufficient_credits), spend caps (402),
 * concurrency (429), row — then enqueues it. If the queue refuses, the row is removed and the
 * credits come back before answering 500 `enqueue_failed`. The account row locked by the debit
 * serializes an account's admissions, so the in-flight count and the balance are exact.
 */
@Injectable()
export class JobAdmission {
  private readonly logger = new Logger(JobAdmission.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly credits: CreditsService,
    private readonly queue: JobQueue,
  ) {}

  async admit(a: Admission, now = new Date()): Promise<Job> {
    const job = await this.db.transaction(async (tx) => {
      const id = newId('job');
      await this.credits.debit(tx, { accountId: a.accountId, apiKeyId: a.key?.id ?? null, jobId: id, cost: a.tool.cost });
      if (a.key) await this.checkSpendCaps(tx, a.key, a.tool.cost, now);
      const [{ count }] = await tx.query(`SELECT count(*)::int AS count FROM jobs WHERE account_id = $1 AND state IN ('queued', 'running')`, [a.accountId]);
      const limit = limitsOf(a.plan).inFlightJobs;
      if (count >= limit && !a.skipConcurrencyLimit) {
        throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, 'concurrency_exceeded', `Too many jobs in flight: the ${a.plan} plan allows ${limit} queued or running jobs at once.`);
      }
      const row = tx.create(Job, {
        id,
        accountId: a.accountId,
        apiKeyId: a.key?.id ?? null,
        tool: a.tool.slug,
        queue: a.tool.queue,
        state: 'queued',
        progress: 0,
        input: a.input,
        options: a.options,
        webhookUrl: a.webhookUrl ?? null,
        cost: a.tool.cost,
        result: null,
        outputKey: null,
        errorCode: null,
        errorMessage: null,
        refunded: false,
        enqueuedAt: null,
        submissionId: a.submissionId ?? null,
        startedAt: null,
        finishedAt: null,
      });
      await tx.insert(Job, row as never);
      const saved = await tx.findOneByOrFail(Job, { id });
      if (a.inTransaction) await a.inTransaction(tx, saved);
      return saved;
    });

    try {
      await this.queue.add(job.queue, job.id);
    } catch (err) {
      await this.withdraw(job.id);
      this.logger.error(`Job ${job.id} could not be queued: ${(err as Error).message}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'enqueue_failed', 'The job could not be queued; no credits were charged. Retry later.');
    }
    await this.db.query('UPDATE jobs SET enqueued_at = now() WHERE id = $1', [job.id]);
    return job;
  }

  /** Refund and remove a job the queue never took: no orphan row, credits back, ledger balanced. */
  private async withdraw(jobId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.credits.refund(jobId, tx);
      await tx.query('DELETE FROM jobs WHERE id = $1', [jobId]);
      // A recorded idempotent answer would otherwise replay a job that no longer exists.
      await tx.query("DELETE FROM idempotency_records WHERE response->>'id' = $1", [jobId]);
    });
  }

  private async checkSpendCaps(tx: import('typeorm').EntityManager, key: NonNullable<Admission['key']>, cost: number, now: Date) {
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    for (const [cap, since, period] of [[key.dailyCap, dayStart, 'daily'], [key.monthlyCap, monthStart, 'monthly']] as const) {
      if (cap === null) continue;
      // The debit just made is in the ledger already, so `spent` includes this job.
      const spent = await this.credits.spentSince(tx, key.id, since);
      if (spent > cap) {
        throw new ApiError(HttpStatus.PAYMENT_REQUIRED, 'spend_cap_reached', `This key's ${period} spend cap of ${cap} credits would be exceeded: ${spent - cost} spent, this job costs ${cost}.`);
      }
    }
  }
}
