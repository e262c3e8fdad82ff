import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DropsRepository } from '../drops/drops.repository';
import { JobFinished } from '../jobs/job-finished.event';
import { storedOutputKeys } from '../jobs/job-outputs';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { mimeOfFormat } from './conversion-plan';
import { SubmissionEvents } from './submission-events';
import { SubmissionsRepository } from './submissions.repository';

/**
 * In the worker: when an auto-conversion job ends, the submission becomes `ready` with its
 * processed file, or `failed` (the original stays downloadable), and `submission.processed` is sent.
 * A job's end may be heard twice (the jobs sweeper redelivers): the update writes the same values
 * again and the event is recorded once. A throw here keeps the job's consequences pending (redelivered).
 */
@Injectable()
export class ProcessedListener {
  constructor(
    private readonly submissions: SubmissionsRepository,
    private readonly drops: DropsRepository,
    private readonly events: SubmissionEvents,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  @OnEvent(JobFinished.event, { suppressErrors: false })
  async finished({ job }: JobFinished): Promise<void> {
    if (!job.submissionId) return;
    const converted = job.state === 'completed' && job.outputKey && job.result?.outputFileName && job.result.outputFormat;
    const submission = converted
      ? await this.submissions.setProcessed(job.submissionId, {
          processedKey: job.outputKey!,
          processedFileName: `${(job.input.fileName ?? '').replace(/\.[^.]*$/, '') || 'file'}.${job.result!.outputFileName!.split('.').pop()}`,
          processedMime: mimeOfFormat(job.result!.outputFormat!),
        })
      : await this.submissions.setFailed(job.submissionId, {
          code: job.errorCode ?? 'processing_failed',
          message: job.errorMessage ?? 'The automatic processing failed; the original file is kept.',
        });
    if (!submission) {
      // Deleted while converting: its converted file belongs to nobody.
      await this.storage.deleteMany(storedOutputKeys(job));
      return;
    }
    const drop = await this.drops.findById(submission.dropId);
    if (drop) await this.events.processed(drop, submission);
  }
}
