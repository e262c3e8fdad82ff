import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '../../common/clock';
import { Transactions } from '../../database/transactions';
import { recordJobFinished } from '../../metrics/dropline-metrics';
import { WebhooksService } from '../../webhooks/webhooks.service';
import { JobDispatch } from '../job-dispatch';
import { JobFinished } from '../job-finished.event';
import { JobRefunds } from '../job-refunds';
import type { Job, StoredJobResult } from '../job.entity';
import { type FinishedJob, JobsRepository } from '../jobs.repository';
import { JobViewer } from '../job-viewer';
import { AdvancePipeline } from './advance-pipeline';

/**
 * A job's end, top to bottom: the final state write (complete, or fail with its refund in the same
 * transaction), then its consequences — a waiting job of the account gets the freed slot, a
 * JobFinished event (drop auto-conversion listens), its webhook (job.completed / job.failed).
 *
 * The final state write marks the consequences pending in the same statement (a transactional
 * outbox): `settle` runs them and clears the mark, and the sweeper (ReconcileJobs) settles jobs
 * whose mark outlived a grace period (a step threw, the worker died). They run at least once, so
 * each is idempotent: promotion counts free slots, the submission update is a plain overwrite,
 * and each webhook carries an event key that records it once.
 */
@Injectable()
export class SettleJob {
  private readonly logger = new Logger(SettleJob.name);

  constructor(
    private readonly jobs: JobsRepository,
    private readonly transactions: Transactions,
    private readonly refunds: JobRefunds,
    private readonly dispatch: JobDispatch,
    private readonly events: EventEmitter2,
    private readonly webhooks: WebhooksService,
    private readonly viewer: JobViewer,
    private readonly advance: AdvancePipeline,
    private readonly clock: Clock,
  ) {}

  /** running → completed, then its consequences. Undefined when the job failed or was re-run meanwhile. */
  async complete(jobId: string, outputKey: string | null, result: StoredJobResult, outputKeys?: Record<string, string>): Promise<FinishedJob | undefined> {
    const completed = await this.jobs.complete(jobId, outputKey, result, this.clock.now(), outputKeys);
    if (!completed) return undefined;
    recordJobFinished(completed);
    await this.settle(completed);
    return completed;
  }

  /** → failed and refunded, once; then its consequences. Nothing when the job had already ended. */
  async fail(jobId: string, code: string, message: string): Promise<void> {
    // The state and the refund commit together: nobody sees a failed job still charged.
    const failed = await this.transactions.run(async (tx) => {
      const row = await this.jobs.fail(tx, jobId, code, message, this.clock.now());
      if (row) await this.refunds.refundOnce(tx, jobId);
      return row;
    });
    if (!failed) return;
    recordJobFinished(failed);
    await this.settle({ ...failed, refunded: true });
  }

  /**
   * Runs a finished job's pending consequences and marks them done. Never throws: what failed
   * stays pending, for the sweeper. Called with the row the final state write returned, or the
   * sweeper's reading of it.
   */
  async settle(job: Job | FinishedJob): Promise<boolean> {
    try {
      // Straight from the final state write: a job without a webhook or submission whose account
      // has nobody waiting is followed by nothing, so it costs no further write (marking and clearing it would be two writes on every job).
      if ('accountHasWaiting' in job && !job.consequencesPending) {
        if (job.accountHasWaiting) await this.promote(job);
        return true;
      }
      await this.finished(job);
      await this.jobs.markConsequencesDone(job.id);
      return true;
    } catch (err) {
      this.logger.warn({ jobId: job.id, err: (err as Error).message }, 'Consequences of a finished job failed; the sweeper will deliver them again');
      return false;
    }
  }

  /** The consequences themselves, each safe to run again. */
  async finished(job: Job | FinishedJob): Promise<void> {
    if (!('accountHasWaiting' in job) || job.accountHasWaiting) await this.promote(job);
    // A pipeline step's end is not a job's end: it moves its pipeline on, which may end it.
    if (job.pipelineId) return this.stepFinished(job);
    await this.events.emitAsync(JobFinished.event, new JobFinished(job));
    if (!job.webhookUrl) return;
    const type = job.state === 'completed' ? 'job.completed' : 'job.failed';
    // A job ends once: one webhook event per job, whoever delivers its consequences. `result.outputs` carries every output's URL.
    await this.webhooks.emit(job.accountId, job.webhookUrl, type, { job: await this.viewer.view(job) }, `job.finished:${job.id}`);
  }

  /** The pipeline this step ended gets its own consequences (its webhook, its submission); a failure there stays pending on its row. */
  private async stepFinished(step: Job): Promise<void> {
    const ended = await this.advance.afterStep(step);
    if (!ended) return;
    recordJobFinished(ended);
    await this.settle(ended);
  }

  /**
   * A waiting job of the account takes the slot this one freed. A failed promotion is the sweeper's
   * to retry, and so is a job that began waiting while this one was ending.
   */
  private async promote(job: Job): Promise<void> {
    await this.dispatch.promoteWaiting(job.accountId).catch((err: Error) => this.logger.warn(`Promoting waiting jobs of ${job.accountId} failed: ${err.message}`));
  }
}
