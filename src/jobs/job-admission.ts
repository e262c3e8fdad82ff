import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { CreditsService } from '../credits/credits.service';
import type { Db } from '../database/sql';
import type { ToolDefinition } from '../tools/tool-registry';
import { IdempotencyService, type IdempotentRequest } from './idempotency.service';
import type { JobInput } from './job.entity';
import { type RankedJob, JobsRepository } from './jobs.repository';
import { decideAdmission, hasSpendCap, type Refusal } from './lifecycle/admission-rules';
import { JobQueue } from './job-queue';

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
   * in-flight limit the job is admitted and paid but waits for a slot (JobDispatch.promoteWaiting) before it is queued.
   */
  waitForSlot?: boolean;
  /** Recorded in the job's transaction; needs `key`. The caller holds the key's lock (IdempotencyService.exclusively). */
  idempotency?: IdempotentRequest;
}

export type AdmissionResult =
  /** The job row, with its fair-share rank for the enqueue. */
  | { outcome: 'admitted'; job: RankedJob }
  /** Nothing was written. */
  | { outcome: 'refused'; refusal: Refusal };

/**
 * The admission transaction's work (docs/decisions.md §7), for the jobs API (SubmitJob) and a
 * drop's intake (auto-conversion), which adds its own rows to the same transaction. It locks the
 * account row first, so an account's admissions queue up and every count is exact; reads the
 * facts; lets the pure rules (lifecycle/admission-rules.ts) decide; and only then writes (the
 * idempotency record, debit and ledger row, job row), so a refusal needs no undo.
 */
@Injectable()
export class JobAdmission {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly jobs: JobsRepository,
    private readonly credits: CreditsService,
    private readonly idempotency: IdempotencyService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async admitIn(tx: Db, a: Admission): Promise<AdmissionResult> {
    const now = this.clock.now();
    const account = await this.accounts.lockForAdmission(tx, a.accountId);
    if (!account) throw new Error(`Account ${a.accountId} does not exist`);
    const inFlight = await this.jobs.countInFlight(tx, a.accountId, a.tool.queue);
    const spent = a.key && hasSpendCap(a.key) ? await this.credits.spentThisDayAndMonth(tx, a.key.id, now) : { day: 0, month: 0 };
    const decision = decideAdmission({
      account,
      key: a.key,
      // The tool's price for these options (a fixed `cost` unless the tool defines `charge`).
      tool: { cost: a.tool.charge(a.options) },
      counts: { inFlight: inFlight.all, inFlightOnQueue: inFlight.onQueue, spentToday: spent.day, spentThisMonth: spent.month },
      waitForSlot: a.waitForSlot,
    });
    if (decision.refused) return { outcome: 'refused', refusal: decision };

    const id = newId('job');
    if (a.idempotency && a.key) {
      const response = { status: 202, body: { id, state: 'queued', statusUrl: `/v1/jobs/${id}` } };
      if (!(await this.idempotency.record(tx, a.key.id, a.idempotency, response, now))) throw new Error('Idempotency key taken under its lock');
    }
    await this.credits.debit(tx, { accountId: a.accountId, apiKeyId: a.key?.id ?? null, jobId: id, cost: decision.cost });
    const job = await this.jobs.insert(tx, {
      id,
      accountId: a.accountId,
      apiKeyId: a.key?.id ?? null,
      tool: a.tool.slug,
      queue: a.tool.queue,
      input: a.input,
      options: a.options,
      webhookUrl: a.webhookUrl ?? null,
      cost: decision.cost,
      submissionId: a.submissionId ?? null,
      queuePrefix: this.queue.prefix,
      waitingForSlot: decision.waitForSlot,
    });
    return { outcome: 'admitted', job: { ...job, fairShareRank: decision.fairShareRank } };
  }
}
