import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { Transactions } from '../../database/transactions';
import { recordJobFinished } from '../../metrics/dropline-metrics';
import { JobDispatch } from '../job-dispatch';
import { JobQueue } from '../job-queue';
import { JobRefunds } from '../job-refunds';
import type { Job } from '../job.entity';
import { JobsRepository } from '../jobs.repository';
import { DomainError } from '../../common/domain-error';
import { TRANSITIONS } from '../lifecycle/job-states';
import { PipelinesRepository } from '../pipelines.repository';

/**
 * POST /v1/jobs/{id}/cancel, top to bottom: the key's own job; the state write (allowed from the
 * states the lifecycle table gives `cancel`: queued only) and its refund commit together; the
 * queue forgets it; its slot goes to a waiting auto-conversion of the account. A pipeline may be
 * canceled while it runs too (`stop`): every step not yet ended is canceled and refunded, one
 * ledger line each, in the same transaction; a running step's run stops its tool at its next
 * heartbeat (RunJob), and nothing it made is kept.
 */
@Injectable()
export class CancelJob {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly transactions: Transactions,
    private readonly refunds: JobRefunds,
    private readonly queue: JobQueue,
    private readonly dispatch: JobDispatch,
    private readonly clock: Clock,
  ) {}

  async execute(apiKeyId: string, jobId: string): Promise<Job> {
    const job = await this.jobs.findForKey(jobId, apiKeyId);
    if (!job) throw notFound();
    if (job.steps) return this.cancelPipeline(job);
    const canceled = await this.transactions.run(async (tx) => {
      const row = await this.jobs.cancel(tx, job.id, this.clock.now());
      if (row) await this.refunds.refundOnce(tx, job.id);
      return row;
    });
    if (!canceled) {
      const current = await this.jobs.findForKey(jobId, apiKeyId);
      if (!current) throw notFound();
      throw new DomainError('cannot_cancel', `The job is ${current.state}; only ${TRANSITIONS.cancel.from.map((s) => `a ${s}`).join(' or ')} job can be canceled.`);
    }
    recordJobFinished(canceled);
    await this.queue.remove(job.queue, job.id);
    // If this fails, the sweeper hands the slot out.
    await this.dispatch.promoteWaiting(job.accountId).catch(() => undefined);
    return { ...canceled, refunded: true };
  }

  private async cancelPipeline(job: Job): Promise<Job> {
    const canceled = await this.transactions.run(async (tx) => {
      const row = await this.pipelines.cancel(tx, job.id, this.clock.now());
      if (!row) return undefined;
      const steps = await this.pipelines.cancelSteps(tx, job.id, this.clock.now());
      for (const step of steps) await this.refunds.refundOnce(tx, step.id);
      return { row: { ...row, refunded: await this.pipelines.updateRefunded(tx, job.id) }, steps };
    });
    if (!canceled)
      throw new DomainError(
        'cannot_cancel',
        `The job is ${job.state === 'queued' || job.state === 'running' ? 'ending' : job.state}; only a queued or running pipeline can be canceled.`,
      );
    recordJobFinished(canceled.row);
    for (const step of canceled.steps) if (step.enqueuedAt) await this.queue.remove(step.queue, step.id);
    await this.dispatch.promoteWaiting(job.accountId).catch(() => undefined);
    return canceled.row;
  }
}

const notFound = () => new DomainError('not_found', 'Job not found.');
