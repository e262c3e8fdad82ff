import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Drop } from '../drops/drop.entity';
import { JobEvents } from '../jobs/job-events';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import type { Job } from '../jobs/job.entity';
import { WebhooksService } from '../webhooks/webhooks.service';
import { mimeOfFormat } from './conversion-plan';
import { Submission } from './submission.entity';
import { toSubmissionView } from './submission-views';

/**
 * In the worker: when an auto-conversion job ends, the submission becomes `ready` with its
 * processed file, or `failed` (the original stays downloadable), and `submission.processed` is sent.
 */
@Injectable()
export class ProcessedListener implements OnModuleInit {
  constructor(
    @InjectRepository(Submission) private readonly submissions: Repository<Submission>,
    @InjectRepository(Drop) private readonly drops: Repository<Drop>,
    private readonly jobEvents: JobEvents,
    private readonly webhooks: WebhooksService,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  onModuleInit(): void {
    this.jobEvents.onFinished((job) => this.finished(job));
  }

  private async finished(job: Job): Promise<void> {
    if (!job.submissionId) return;
    const submission = await this.submissions.findOneBy({ id: job.submissionId });
    if (!submission) {
      // Deleted while converting: its converted file belongs to nobody.
      if (job.outputKey) await this.storage.delete(job.outputKey);
      return;
    }
    if (job.state === 'completed' && job.outputKey && job.result) {
      const base = submission.fileName.replace(/\.[^.]*$/, '') || 'file';
      const ext = job.result.outputFileName.split('.').pop();
      await this.submissions.update({ id: submission.id }, {
        status: 'ready',
        processedKey: job.outputKey,
        processedFileName: `${base}.${ext}`,
        processedMime: mimeOfFormat(job.result.outputFormat),
      });
    } else {
      await this.submissions.update({ id: submission.id }, { status: 'failed' });
    }
    const drop = await this.drops.findOneBy({ id: submission.dropId });
    if (drop?.webhookUrl) {
      const updated = await this.submissions.findOneByOrFail({ id: submission.id });
      await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.processed', {
        drop: { slug: drop.slug, name: drop.name },
        submission: toSubmissionView(updated),
      });
    }
  }
}
