import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { WebhooksService } from '../webhooks/webhooks.service';
import { Job } from './job.entity';
import { toJobView } from './job-views';
import { RESULT_URL_SECONDS } from './jobs.service';

/** What follows a job's end: its webhook (job.completed / job.failed) when one was given. */
@Injectable()
export class JobEvents {
  private readonly listeners: ((job: Job) => Promise<void>)[] = [];

  constructor(
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly webhooks: WebhooksService,
  ) {}

  /** Other modules (drop auto-conversion) hear about finished jobs here. */
  onFinished(listener: (job: Job) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async finished(jobId: string): Promise<void> {
    const job = await this.jobs.findOneByOrFail({ id: jobId });
    for (const listener of this.listeners) await listener(job);
    if (!job.webhookUrl) return;
    const url = job.outputKey && job.result
      ? await this.storage.signedUrl(job.outputKey, { fileName: job.result.outputFileName, expiresIn: RESULT_URL_SECONDS })
      : undefined;
    await this.webhooks.emit(job.accountId, job.webhookUrl, job.state === 'completed' ? 'job.completed' : 'job.failed', { job: toJobView(job, url) });
  }
}
