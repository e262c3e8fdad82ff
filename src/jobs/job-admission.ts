import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { CreditsService } from '../credits/credits.service';
import type { Db } from '../database/sql';
import { type PlannedStep, pipelineCharge } from '../tools/pipeline-plan';
import type { ToolDefinition, ToolSlug } from '../tools/tool-registry';
import { ToolAvailability } from '../tools/tool-availability';
import { IdempotencyService, type IdempotentRequest } from './idempotency.service';
import type { JobInput } from './job.entity';
import type { DispatchedJob } from './job-dispatch';
import { type NewJob, type RankedJob, JobsRepository } from './jobs.repository';
import { type Charge, decideAdmission, hasSpendCap, type Refusal } from './lifecycle/admission-rules';
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
  /**
   * A job with steps (PipelineCheck's plan; `tool` is then its first step's): one job row costing
   * the steps' sum and counting once in flight, and one row per step. `stepOrder`: the names as
   * the client gave them (the plan's order puts a step after the one it reads).
   */
  pipeline?: PlannedStep[];
  stepOrder?: string[];
  /**
   * The caller hands the job to the queue right after the commit (the jobs API: JobDispatch.enqueueOrWithdraw),
   * so its row says it is enqueued from the start, sparing a write per job. Should the process die in
   * between, the sweeper finds it queued, enqueued and unknown to the queue, and queues it (ReconcileJobs.failLost).
   */
  enqueueAtCommit?: boolean;
}

export type AdmissionResult =
  /** The job row, with its fair-share rank for the enqueue (and a pipeline's steps to enqueue). */
  | { outcome: 'admitted'; job: DispatchedJob }
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
    private readonly availability: ToolAvailability,
  ) {}

  async admitIn(tx: Db, a: Admission): Promise<AdmissionResult> {
    const now = this.clock.now();
    const decision = await this.decide(tx, a, now, 'lock');
    if (decision.refused) return { outcome: 'refused', refusal: decision };

    const id = newId('job');
    if (a.idempotency && a.key) {
      const response = { status: 202, body: { id, state: 'queued', statusUrl: `/v1/jobs/${id}` } };
      if (!(await this.idempotency.record(tx, a.key.id, a.idempotency, response, now))) throw new Error('Idempotency key taken under its lock');
    }
    await this.credits.debit(tx, { accountId: a.accountId, apiKeyId: a.key?.id ?? null, jobId: id, cost: decision.cost });
    const row: NewJob = {
      id,
      accountId: a.accountId,
      apiKeyId: a.key?.id ?? null,
      tool: a.tool.slug,
      queue: a.tool.queue,
      input: a.input,
      options: a.pipeline ? {} : a.options,
      webhookUrl: a.webhookUrl ?? null,
      cost: decision.cost,
      submissionId: a.submissionId ?? null,
      queuePrefix: this.queue.prefix,
      waitingForSlot: decision.waitForSlot,
      steps: a.pipeline ? (a.stepOrder ?? a.pipeline.map((s) => s.name)) : null,
      // A pipeline has no queue entry of its own; its runnable steps have (insertSteps).
      enqueuedAt: a.enqueueAtCommit && !a.pipeline && !decision.waitForSlot ? now : null,
    };
    const job = await this.jobs.insert(tx, row);
    const firstSteps = a.pipeline ? await this.insertSteps(tx, row, a.pipeline, decision.fairShareRank, a.enqueueAtCommit ? now : null) : undefined;
    return { outcome: 'admitted', job: { ...job, fairShareRank: decision.fairShareRank, firstSteps } };
  }

  /**
   * What `admitIn` would decide now, by the same reads and rules, without the account lock and
   * without writing (a quote, POST /v1/jobs?dryRun=true). Read outside the lock, the counts may be
   * a moment old by the time a real submission follows: a quote promises nothing.
   */
  quote(db: Db, a: Admission): Promise<Refusal | Charge> {
    return this.decide(db, a, this.clock.now(), 'read');
  }

  /** The one path from an admission to its decision: availability, then the facts read, then the pure rules. */
  private async decide(db: Db, a: Admission, now: Date, account: 'lock' | 'read'): Promise<Refusal | Charge> {
    // A tool whose program is missing here would fail on the worker after the charge: refuse it
    // first (every step of a pipeline), for the jobs API (503) and a drop's processing (kept as sent) alike.
    const unavailable = await this.availability.refusal(a.pipeline ? a.pipeline.map((step) => step.tool) : [a.tool]);
    if (unavailable) return { refused: true, code: 'tool_unavailable', message: unavailable };
    const facts = account === 'lock' ? await this.accounts.lockForAdmission(db, a.accountId) : await this.accounts.readForAdmission(db, a.accountId);
    if (!facts) throw new Error(`Account ${a.accountId} does not exist`);
    const inFlight = await this.jobs.countInFlight(db, a.accountId, a.tool.queue);
    const spent = a.key && hasSpendCap(a.key) ? await this.credits.spentThisDayAndMonth(db, a.key.id, now) : { day: 0, month: 0 };
    return decideAdmission({
      account: facts,
      key: a.key,
      // The tool's price for these options (a fixed `cost` unless the tool defines `charge`); a pipeline's is its steps' sum.
      tool: { cost: admissionCost(a) },
      counts: { inFlight: inFlight.all, inFlightOnQueue: inFlight.onQueue, spentToday: spent.day, spentThisMonth: spent.month },
      waitForSlot: a.waitForSlot,
    });
  }

  /**
   * One job row per step, each with its own tool, queue and price. A step reading another's output
   * waits blocked until that one completes (AdvancePipeline), and so does every step of a pipeline
   * waiting for its account's slot. Returns the steps that may be enqueued now.
   */
  private async insertSteps(tx: Db, pipeline: NewJob, plan: PlannedStep[], fairShareRank: number, enqueuedAt: Date | null): Promise<RankedJob[]> {
    const runnable: RankedJob[] = [];
    for (const step of plan) {
      const blocked = step.input !== null || pipeline.waitingForSlot;
      const row = await this.jobs.insert(tx, {
        id: newId('job'),
        accountId: pipeline.accountId,
        apiKeyId: pipeline.apiKeyId,
        tool: step.tool.slug as ToolSlug,
        queue: step.tool.queue,
        input: step.input === null ? pipeline.input : {},
        options: step.options,
        webhookUrl: null,
        cost: step.tool.charge(step.options),
        // A drop's pipeline: its steps' files are the submission's, kept as long as it (retention).
        submissionId: pipeline.submissionId,
        queuePrefix: pipeline.queuePrefix,
        waitingForSlot: false,
        pipelineId: pipeline.id,
        stepName: step.name,
        stepInput: step.input,
        stepBlocked: blocked,
        enqueuedAt: blocked ? null : enqueuedAt,
      });
      if (!blocked) runnable.push({ ...row, fairShareRank });
    }
    return runnable;
  }
}

/** What an admission debits: the tool's price for its options, or a pipeline's steps' sum. */
export function admissionCost(a: Pick<Admission, 'tool' | 'options' | 'pipeline'>): number {
  return a.pipeline ? pipelineCharge(a.pipeline) : a.tool.charge(a.options);
}
