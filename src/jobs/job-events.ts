import { Inject, Injectable, Logger } from '@nestjs/common';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { WebhooksService } from '../webhooks/webhooks.service';
import { JobAdmission } from './job-admission';
import type { Job } from './job.entity';
import { toJobView } from './job-views';
import { RESULT_URL_SECONDS } from './jobs.service';

/** What follows a job's end: a waiting job of the account gets its slot; its webhook (job.completed / job.failed) when one was given. */
@Injectable()
export class JobEvents {
  private readonly logger = new Logger(JobEvents.name);
  private readonly listeners: ((job: Job) => Promise<void>)[] = [];

  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly webhooks: WebhooksService,
    private readonly admission: JobAdmission,
  ) {}

  /** Other modules (drop auto-conversion) hear about finished jobs here. */
  onFinished(listener: (job: Job) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Called with the row the final state write returned. */
  async finished(job: Job): Promise<void> {
    // A failed promotion is the sweeper's to retry: it must not cost the job its webhook.
    await this.admission.promoteWaiting(job.accountId).catch((err: Error) => this.logger.warn(`Promoting waiting jobs of ${job.accountId} failed: ${err.message}`));
    for (const listener of this.listeners) await listener(job);
    if (!job.webhookUrl) return;
    const url = job.outputKey && job.result ? await this.storage.signedUrl(job.outputKey, { fileName: job.result.outputFileName, expiresIn: RESULT_URL_SECONDS }) : undefined;
    await this.webhooks.emit(job.accountId, job.webhookUrl, job.state === 'completed' ? 'job.completed' : 'job.failed', { job: toJobView(job, url) });
  }
}
