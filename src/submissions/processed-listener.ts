import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DropsRepository } from '../drops/drops.repository';
import { JobEvents } from '../jobs/job-events';
import type { Job } from '../jobs/job.entity';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { mimeOfFormat } from './conversion-plan';
import { SubmissionEvents } from './submission-events';
import { SubmissionsRepository } from './submissions.repository';

/**
 * In the worker: when an auto-conversion job ends, the submission becomes `ready` with its
 * processed file, or `failed` (the original stays downloadable), and `submission.processed` is sent.
 * A job's end may be heard twice (JobEvents.settle redelivers): the update writes the same values
 * again and the event is recorded once.
 */
@Injectable()
export class ProcessedListener implements OnModuleInit {
  constructor(
    private readonly submissions: SubmissionsRepository,
    private readonly drops: DropsRepository,
    private readonly jobEvents: JobEvents,
    private readonly events: SubmissionEvents,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  onModuleInit(): void {
    this.jobEvents.onFinished((job) => this.finished(job));
  }

  private async finished(job: Job): Promise<void> {
    if (!job.submissionId) return;
    const converted = job.state === 'completed' && job.outputKey && job.result;
    const submission = converted
      ? await this.submissions.setProcessed(job.submissionId, {
          processedKey: job.outputKey!,
          processedFileName: `${(job.input.fileName ?? '').replace(/\.[^.]*$/, '') || 'file'}.${job.result!.outputFileName.split('.').pop()}`,
          processedMime: mimeOfFormat(job.result!.outputFormat),
        })
      : await this.submissions.setFailed(job.submissionId, {
          code: job.errorCode ?? 'processing_failed',
          message: job.errorMessage ?? 'The automatic processing failed; the original file is kept.',
        });
    if (!submission) {
      // Deleted while converting: its converted file belongs to nobody.
      if (job.outputKey) await this.storage.delete(job.outputKey);
      return;
    }
    const drop = await this.drops.findById(submission.dropId);
    if (drop) await this.events.processed(drop, submission);
  }
}
