import { Inject, Injectable, Logger } from '@nestjs/common';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { WebhooksService } from '../webhooks/webhooks.service';
import { JobAdmission } from './job-admission';
import type { Job } from './job.entity';
import { toJobView } from './job-views';
import { type FinishedJob, JobsRepository } from './jobs.repository';
import { RESULT_URL_SECONDS } from './jobs.service';

/**
 * What follows a job's end: a waiting job of the account gets its slot; listeners (drop
 * auto-conversion) hear of it; its webhook (job.completed / job.failed) when one was given.
 * The final state write marks these consequences pending in the same statement (a transactional
 * outbox): `settle` runs them and clears the mark, and the job sweeper settles jobs whose mark
 * outlived a grace period (the step threw, the worker died). They run at least once, so each is
 * idempotent: promotion counts free slots, the submission update is a plain overwrite, and each
 * webhook carries an event key that records it once.
 */
@Injectable()
export class JobEvents {
  private readonly logger = new Logger(JobEvents.name);
  private readonly listeners: ((job: Job) => Promise<void>)[] = [];

  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly webhooks: WebhooksService,
    private readonly admission: JobAdmission,
    private readonly jobs: JobsRepository,
  ) {}

  /** Other modules (drop auto-conversion) hear about finished jobs here; a listener must bear hearing of one job twice. */
  onFinished(listener: (job: Job) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /**
   * Runs a finished job's pending consequences and marks them done. Never throws: what failed
   * stays pending, for the sweeper. Called with the row the final state write returned, or the
   * sweeper's reading of it.
   */
  async settle(job: Job | FinishedJob): Promise<boolean> {
    try {
      // Straight from the final state write: a job without a webhook or submission whose account
      // has nobody waiting is followed by nothing, so it costs no further write (issue 9: two per job).
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
    for (const listener of this.listeners) await listener(job);
    if (!job.webhookUrl) return;
    const url = job.outputKey && job.result ? await this.storage.signedUrl(job.outputKey, { fileName: job.result.outputFileName, expiresIn: RESULT_URL_SECONDS }) : undefined;
    const type = job.state === 'completed' ? 'job.completed' : 'job.failed';
    // A job ends once: one webhook event per job, whoever delivers its consequences.
    await this.webhooks.emit(job.accountId, job.webhookUrl, type, { job: toJobView(job, url) }, `job.finished:${job.id}`);
  }

  /**
   * A waiting job of the account takes the slot this one freed. A failed promotion is the sweeper's
   * to retry (every SWEEP_EVERY_MS), and so is a job that began waiting while this one was ending.
   */
  private async promote(job: Job): Promise<void> {
    await this.admission.promoteWaiting(job.accountId).catch((err: Error) => this.logger.warn(`Promoting waiting jobs of ${job.accountId} failed: ${err.message}`));
  }
}
