import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CursorPosition } from '../common/cursor';
import { type Db, firstRow, rows } from '../database/sql';
import type { Job, JobState, StoredJobResult } from './job.entity';
import { FINAL_STATES, fromStatesSql, IN_FLIGHT_STATES, INITIAL_STATE, sqlStates, TRANSITIONS, type TransitionName } from './lifecycle/job-states';

/** A state write's pieces from the lifecycle table (lifecycle/job-states.ts): the target state and the allowed from-states. */
export function transition(name: TransitionName): { to: string; from: string } {
  return { to: `'${TRANSITIONS[name].to}'`, from: fromStatesSql(name) };
}
const START = transition('start');
const REQUEUE = transition('requeue');
const COMPLETE = transition('complete');
const FAIL = transition('fail');
const CANCEL = transition('cancel');
export const IN_FLIGHT = sqlStates(IN_FLIGHT_STATES);
const FINAL = sqlStates(FINAL_STATES);
export const INITIAL = `'${INITIAL_STATE}'`;

/**
 * A job's fair-share rank (JobQueue): how many of its account's jobs on its queue are in flight
 * and older. Read in the statement that finds or changes the row, so an enqueue needs no query of its own.
 */
export const FAIR_SHARE_RANK = `(SELECT count(*) FROM jobs ahead WHERE ahead.account_id = jobs.account_id AND ahead.queue = jobs.queue
  AND ahead.state IN (${IN_FLIGHT}) AND NOT ahead.waiting_for_slot AND (ahead.created_at, ahead.id) < (jobs.created_at, jobs.id))::int AS "fairShareRank"`;

/** The jobs table. Hot paths (reads, state changes) are plain parameterised SQL, one statement each. */
export const COLUMNS = `id, account_id AS "accountId", api_key_id AS "apiKeyId", tool, queue, state, progress, input, options,
  webhook_url AS "webhookUrl", cost, result, output_key AS "outputKey", output_keys AS "outputKeys", error_code AS "errorCode",
  error_message AS "errorMessage", refunded, enqueued_at AS "enqueuedAt", submission_id AS "submissionId",
  queue_prefix AS "queuePrefix", waiting_for_slot AS "waitingForSlot", output_expired_at AS "outputExpiredAt", created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt",
  pipeline_id AS "pipelineId", step_name AS "stepName", step_input AS "stepInput", step_blocked AS "stepBlocked", steps`;

/** What a job's end must be followed by beyond promotion: its webhook, its submission's update, its pipeline's next steps (SettleJob.finished). */
export const HAS_CONSEQUENCES = '(webhook_url IS NOT NULL OR submission_id IS NOT NULL OR pipeline_id IS NOT NULL)';
export const FINISHED_COLUMNS = `${COLUMNS}, consequences_pending AS "consequencesPending",
  EXISTS (SELECT 1 FROM jobs w WHERE w.account_id = jobs.account_id AND w.waiting_for_slot AND w.state = ${INITIAL}) AS "accountHasWaiting"`;

/** The row a final state write returned, with what its end must be followed by. */
export type FinishedJob = Job & { consequencesPending: boolean; accountHasWaiting: boolean };

/**
 * A claimed job with its account's plan (the input fetch's size limit), read by the claim itself so
 * a run needs no query of its own for it; null when the account is gone.
 */
export type ClaimedJob = Job & { accountPlan: string | null };

/** A row about to be (re-)enqueued, with its fair-share rank. */
export type RankedJob = Job & { fairShareRank: number };

/** A sweeper's own deployment's rows (`$3`, its queue prefix), and rows from before jobs recorded one. */
const OWN_JOBS = '(queue_prefix = $3 OR queue_prefix IS NULL)';

export type NewJob = Pick<
  Job,
  'id' | 'accountId' | 'apiKeyId' | 'tool' | 'queue' | 'input' | 'options' | 'webhookUrl' | 'cost' | 'submissionId' | 'queuePrefix' | 'waitingForSlot'
> &
  Partial<Pick<Job, 'pipelineId' | 'stepName' | 'stepInput' | 'stepBlocked' | 'steps' | 'enqueuedAt'>>;

/** What a refund needs to know of a job, returned by the statement that marks it refunded. */
export interface RefundableJob {
  accountId: string;
  apiKeyId: string | null;
  cost: number;
  /** A pipeline step's refund is a ledger line of its pipeline job, naming the step. */
  pipelineId: string | null;
  stepName: string | null;
}

/** Output retention per plan in milliseconds (the retention policy's). */
export interface OutputRetentionMs {
  free: number;
  pro: number;
  max: number;
}

@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tx: Db, job: NewJob): Promise<Job> {
    return (await firstRow<Job>(
      tx,
      `INSERT INTO jobs (id, account_id, api_key_id, tool, queue, state, progress, input, options, webhook_url, cost, refunded, submission_id, queue_prefix, waiting_for_slot,
         pipeline_id, step_name, step_input, step_blocked, steps, enqueued_at)
       VALUES ($1, $2, $3, $4, $5, ${INITIAL}, 0, $6, $7, $8, $9, false, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING ${COLUMNS}`,
      [
        job.id,
        job.accountId,
        job.apiKeyId,
        job.tool,
        job.queue,
        JSON.stringify(job.input),
        JSON.stringify(job.options),
        job.webhookUrl,
        job.cost,
        job.submissionId,
        job.queuePrefix,
        job.waitingForSlot,
        job.pipelineId ?? null,
        job.stepName ?? null,
        job.stepInput ?? null,
        job.stepBlocked ?? false,
        job.steps ? JSON.stringify(job.steps) : null,
        job.enqueuedAt ?? null,
      ],
    ))!;
  }

  /** Queued or running, not counting conversions still waiting for a slot, nor a pipeline's steps (the pipeline counts once): on every queue, and on `queue`. */
  async countInFlight(tx: Db, accountId: string, queue = ''): Promise<{ all: number; onQueue: number }> {
    const row = await firstRow<{ all: number; onQueue: number }>(
      tx,
      `SELECT count(*)::int AS "all", (count(*) FILTER (WHERE queue = $2))::int AS "onQueue"
       FROM jobs WHERE account_id = $1 AND state IN (${IN_FLIGHT}) AND NOT waiting_for_slot AND pipeline_id IS NULL`,
      [accountId, queue],
    );
    return row!;
  }

  /** Up to `count` of the account's waiting jobs, oldest first, take their slot (inside the caller's account lock). */
  takeSlots(tx: Db, accountId: string, count: number): Promise<RankedJob[]> {
    return rows<RankedJob>(
      tx,
      `UPDATE jobs SET waiting_for_slot = false WHERE id IN (
         SELECT id FROM jobs WHERE account_id = $1 AND waiting_for_slot AND state = ${INITIAL} ORDER BY created_at, id LIMIT $2 FOR UPDATE
       ) RETURNING ${COLUMNS}, ${FAIR_SHARE_RANK}`,
      [accountId, count],
    );
  }

  /** Accounts of this deployment with jobs waiting for a slot (the sweeper's safety net). */
  async accountsWaiting(queuePrefix: string, limit: number): Promise<string[]> {
    const found = await rows<{ accountId: string }>(
      this.db,
      `SELECT DISTINCT account_id AS "accountId" FROM jobs WHERE waiting_for_slot AND state = ${INITIAL} AND (queue_prefix = $2 OR queue_prefix IS NULL) LIMIT $1`,
      [limit, queuePrefix],
    );
    return found.map((r) => r.accountId);
  }

  findById(id: string, db: Db = this.db): Promise<Job | undefined> {
    return firstRow<Job>(db, `SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [id]);
  }

  /** A key sees only its own jobs (a pipeline's steps only inside it). */
  findForKey(id: string, apiKeyId: string): Promise<Job | undefined> {
    return firstRow<Job>(this.db, `SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND api_key_id = $2 AND pipeline_id IS NULL`, [id, apiKeyId]);
  }

  /** Newest first, keyset-paginated on (created_at, id); one more row than asked tells whether a next page exists. */
  listForKey(apiKeyId: string, take: number, filters: { after?: CursorPosition; state?: JobState; tool?: string }): Promise<Job[]> {
    return rows<Job>(
      this.db,
      `SELECT ${COLUMNS} FROM jobs
       WHERE api_key_id = $1 AND pipeline_id IS NULL
         AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
         AND ($4::text IS NULL OR state = $4) AND ($5::text IS NULL OR tool = $5)
       ORDER BY created_at DESC, id DESC LIMIT $6`,
      [apiKeyId, filters.after?.createdAt ?? null, filters.after?.id ?? null, filters.state ?? null, filters.tool ?? null, take],
    );
  }

  async markEnqueued(id: string, at: Date, db: Db = this.db): Promise<void> {
    await db.query('UPDATE jobs SET enqueued_at = $2 WHERE id = $1', [id, at]);
  }

  /** → canceled; undefined when the job had moved on (started, ended). */
  cancel(tx: Db, id: string, at: Date): Promise<Job | undefined> {
    return firstRow<Job>(tx, `UPDATE jobs SET state = ${CANCEL.to}, finished_at = $2 WHERE id = $1 AND state IN (${CANCEL.from}) RETURNING ${COLUMNS}`, [id, at]);
  }

  /**
   * First committed write of a run, a claim: queued → running, or running → running when the run
   * holding it has shown no sign of life for `leaseMs` (its worker died). Undefined when the job
   * has ended or another run holds it. Lease times are the database's, the same for every worker.
   */
  start(id: string, at: Date, runId: string, leaseMs: number): Promise<ClaimedJob | undefined> {
    // A pipeline step's claim also starts its pipeline (queued → running), in the same statement;
    // two steps claimed at once: the pipeline started when the first of them did.
    return firstRow<ClaimedJob>(
      this.db,
      `WITH claimed AS (
         UPDATE jobs SET state = ${START.to}, started_at = COALESCE(started_at, $2), progress = 0, run_id = $3, run_heartbeat_at = now()
         WHERE id = $1 AND state IN (${START.from})
           AND (state = ${INITIAL} OR run_heartbeat_at IS NULL OR run_heartbeat_at < now() - make_interval(secs => $4::float8 / 1000))
         RETURNING ${COLUMNS}, (SELECT plan FROM accounts WHERE accounts.id = jobs.account_id) AS "accountPlan"
       ), pipeline AS (
         UPDATE jobs SET state = ${START.to}, started_at = LEAST(COALESCE(jobs.started_at, $2), $2)
         FROM claimed WHERE jobs.id = claimed."pipelineId" AND jobs.state IN (${START.from})
       )
       SELECT * FROM claimed`,
      [id, at, runId, leaseMs],
    );
  }

  /** The holding run's sign of life; false once another run took the job over. */
  async heartbeat(id: string, runId: string): Promise<boolean> {
    const row = await firstRow(this.db, `UPDATE jobs SET run_heartbeat_at = now() WHERE id = $1 AND run_id = $2 AND state = ${START.to} RETURNING id`, [id, runId]);
    return row !== undefined;
  }

  /**
   * Second committed write: running → completed. Undefined when the job failed or was re-run meanwhile.
   * Like `fail`, it records in the same statement whether the job has consequences to deliver
   * (a webhook, a submission: SettleJob.settle) and reads whether its account has jobs waiting for a slot.
   * `outputKey` is null for a tool that writes no file; `outputKeys` are the further outputs' keys by name.
   */
  complete(id: string, outputKey: string | null, result: StoredJobResult, at: Date, outputKeys?: Record<string, string>): Promise<FinishedJob | undefined> {
    return firstRow<FinishedJob>(
      this.db,
      `UPDATE jobs SET state = ${COMPLETE.to}, progress = 100, output_key = $2, result = $3, finished_at = $4, output_keys = $5, consequences_pending = ${HAS_CONSEQUENCES}
       WHERE id = $1 AND state IN (${COMPLETE.from}) RETURNING ${FINISHED_COLUMNS}`,
      [id, outputKey, JSON.stringify(result), at, outputKeys && Object.keys(outputKeys).length > 0 ? JSON.stringify(outputKeys) : null],
    );
  }

  /** Queued → failed or running → failed; undefined when it had already ended. */
  fail(tx: Db, id: string, code: string, message: string, at: Date): Promise<FinishedJob | undefined> {
    return firstRow<FinishedJob>(
      tx,
      `UPDATE jobs SET state = ${FAIL.to}, error_code = $2, error_message = $3, finished_at = $4, consequences_pending = ${HAS_CONSEQUENCES}
       WHERE id = $1 AND state IN (${FAIL.from}) RETURNING ${FINISHED_COLUMNS}`,
      [id, code, message, at],
    );
  }

  /** The job's consequences ran (SettleJob.settle): nothing left for the sweeper. */
  async markConsequencesDone(id: string): Promise<void> {
    await this.db.query('UPDATE jobs SET consequences_pending = false WHERE id = $1 AND consequences_pending', [id]);
  }

  /** Ended before `before` with consequences still pending (they threw, or the worker died): the sweeper's to redeliver. */
  findConsequencesPending(queuePrefix: string, before: Date, limit: number): Promise<Job[]> {
    return rows<Job>(this.db, `SELECT ${COLUMNS} FROM jobs WHERE consequences_pending AND finished_at < $1 AND ${OWN_JOBS} ORDER BY finished_at LIMIT $2`, [
      before,
      limit,
      queuePrefix,
    ]);
  }

  /** Back in line for a BullMQ retry, released by its run. */
  async requeue(id: string): Promise<void> {
    await this.db.query(`UPDATE jobs SET state = ${REQUEUE.to}, progress = 0, run_id = NULL WHERE id = $1 AND state IN (${REQUEUE.from})`, [id]);
  }

  /** Progress is not a state change: best effort, the row's state stays `running`. */
  async setProgress(id: string, progress: number): Promise<void> {
    await this.db.query(`UPDATE jobs SET progress = $2 WHERE id = $1 AND state = ${START.to}`, [id, progress]);
  }

  /** Flips `refunded` once; undefined if the job was refunded already (or does not exist). */
  markRefunded(tx: Db, id: string): Promise<RefundableJob | undefined> {
    return firstRow<RefundableJob>(
      tx,
      `UPDATE jobs SET refunded = true WHERE id = $1 AND refunded = false
       RETURNING account_id AS "accountId", api_key_id AS "apiKeyId", cost, pipeline_id AS "pipelineId", step_name AS "stepName"`,
      [id],
    );
  }

  /** Removes a job the queue never took (JobDispatch.withdraw). */
  async delete(tx: Db, id: string): Promise<void> {
    await tx.query('DELETE FROM jobs WHERE id = $1', [id]);
  }

  /**
   * Accepted before `before` but never handed to the queue (the API died in between); a pipeline
   * step once it may run (not blocked), never a pipeline itself (it has no queue entry).
   */
  findNeverEnqueued(queuePrefix: string, before: Date, limit: number): Promise<RankedJob[]> {
    return rows<RankedJob>(
      this.db,
      `SELECT ${COLUMNS}, ${FAIR_SHARE_RANK} FROM jobs WHERE state = ${INITIAL} AND enqueued_at IS NULL AND NOT waiting_for_slot AND NOT step_blocked AND steps IS NULL
       AND created_at < $1 AND ${OWN_JOBS} LIMIT $2`,
      [before, limit, queuePrefix],
    );
  }

  /** Queued or running and enqueued before `before`, oldest first: candidates for the queue reconciliation. */
  findInFlightEnqueuedBefore(queuePrefix: string, before: Date, limit: number): Promise<RankedJob[]> {
    return rows<RankedJob>(
      this.db,
      `SELECT ${COLUMNS}, ${FAIR_SHARE_RANK} FROM jobs WHERE state IN (${IN_FLIGHT}) AND enqueued_at IS NOT NULL AND enqueued_at < $1 AND steps IS NULL AND ${OWN_JOBS}
       ORDER BY enqueued_at LIMIT $2`,
      [before, limit, queuePrefix],
    );
  }

  // Retention (docs/retention.md): RetentionPurge calls these in its batches. Each statement touches
  // at most `limit` rows found through a partial index in its own order (bench/RESULTS.md has the
  // plans), so a purge tick costs the same on a table of 10 k rows or of 5 M.

  /**
   * Gives up to `limit` outputs made since the last purge their expiry: finished_at plus their
   * account's plan's retention. An auto-conversion's output is its submission's processed file,
   * kept as long as the submission: never stamped.
   */
  async stampOutputExpiry(queuePrefix: string, retention: OutputRetentionMs, limit: number): Promise<number> {
    const result = await this.db.query(
      `UPDATE jobs j SET output_expires_at = j.finished_at + make_interval(secs => (CASE a.plan WHEN 'pro' THEN $2 WHEN 'max' THEN $3 ELSE $1 END)::float8 / 1000)
       FROM accounts a
       WHERE a.id = j.account_id AND j.id = ANY(ARRAY(
         SELECT id FROM jobs WHERE output_key IS NOT NULL AND output_expires_at IS NULL AND submission_id IS NULL AND (queue_prefix = $5 OR queue_prefix IS NULL)
         ORDER BY finished_at LIMIT $4))`,
      [retention.free, retention.pro, retention.max, limit, queuePrefix],
    );
    return result[1] ?? 0;
  }

  /** Marks up to `limit` jobs' outputs expired at `now` (in the caller's transaction); the storage keys of all their outputs. */
  async expireOutputs(tx: Db, queuePrefix: string, now: Date, limit: number): Promise<string[]> {
    const found = await rows<{ key: string; keys: Record<string, string> | null }>(
      tx,
      `UPDATE jobs SET output_expired_at = $1 WHERE id = ANY(ARRAY(
         SELECT id FROM jobs WHERE output_expires_at IS NOT NULL AND output_expired_at IS NULL AND output_expires_at <= $1 AND (queue_prefix = $3 OR queue_prefix IS NULL)
         ORDER BY output_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING output_key AS key, output_keys AS keys`,
      [now, limit, queuePrefix],
    );
    return found.flatMap((r) => [r.key, ...Object.values(r.keys ?? {})]);
  }

  /**
   * Deletes up to `limit` job rows finished before `before` whose consequences were delivered
   * (in the caller's transaction); the output keys still live on them (an output kept longer than
   * the row) to delete with them. Auto-conversion outputs belong to their submission. A pipeline
   * job goes once its steps have (its files live on their rows: a cascade would not return them).
   */
  async deleteFinished(tx: Db, queuePrefix: string, before: Date, limit: number): Promise<{ deleted: number; outputKeys: string[] }> {
    const found = await rows<{ key: string | null; keys: Record<string, string> | null }>(
      tx,
      `DELETE FROM jobs WHERE id = ANY(ARRAY(
         SELECT id FROM jobs WHERE state IN (${FINAL}) AND finished_at < $1 AND NOT consequences_pending AND (queue_prefix = $3 OR queue_prefix IS NULL)
           AND NOT EXISTS (SELECT 1 FROM jobs step WHERE step.pipeline_id = jobs.id)
         ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED))
       RETURNING CASE WHEN output_expired_at IS NULL AND submission_id IS NULL THEN output_key END AS key,
                 CASE WHEN output_expired_at IS NULL AND submission_id IS NULL THEN output_keys END AS keys`,
      [before, limit, queuePrefix],
    );
    return { deleted: found.length, outputKeys: found.flatMap((r) => [r.key, ...Object.values(r.keys ?? {})]).filter((k): k is string => Boolean(k)) };
  }
}
