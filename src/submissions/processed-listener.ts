import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Transactions } from '../database/transactions';
import { DropsRepository } from '../drops/drops.repository';
import { JobFinished } from '../jobs/job-finished.event';
import { storedOutputKeys } from '../jobs/job-outputs';
import type { Job } from '../jobs/job.entity';
import { PipelinesRepository } from '../jobs/pipelines.repository';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { mimeOfFormat } from './conversion-plan';
import type { Submission } from './submission.entity';
import { SubmissionEvents } from './submission-events';
import { SubmissionsRepository } from './submissions.repository';
import { templateError, templateOutputs } from './template-outputs';

/**
 * In the worker: when a drop's automatic processing ends, the submission becomes `ready` or
 * `failed` (the original stays downloadable) and `submission.processed` is sent. An
 * auto-conversion leaves its processed file; a template's run (a pipeline job: its steps are job
 * rows of their own, whose ends are ignored here) leaves the files of the steps that completed as
 * the submission's `outputs`, on success or failure alike.
 * A job's end may be heard twice (the jobs sweeper redelivers): the update writes the same values
 * again and the event is recorded once. A throw here keeps the job's consequences pending (redelivered).
 */
@Injectable()
export class ProcessedListener {
  constructor(
    private readonly submissions: SubmissionsRepository,
    private readonly drops: DropsRepository,
    private readonly pipelines: PipelinesRepository,
    private readonly transactions: Transactions,
    private readonly events: SubmissionEvents,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  @OnEvent(JobFinished.event, { suppressErrors: false })
  async finished({ job }: JobFinished): Promise<void> {
    // A pipeline's step: its pipeline's end records the run.
    if (!job.submissionId || job.pipelineId) return;
    const submission = job.steps ? await this.templateFinished(job, job.submissionId, job.steps) : await this.conversionFinished(job, job.submissionId);
    if (!submission) return;
    const drop = await this.drops.findById(submission.dropId);
    if (drop) await this.events.processed(drop, submission);
  }

  private async conversionFinished(job: Job, submissionId: string): Promise<Submission | undefined> {
    const converted = job.state === 'completed' && job.outputKey && job.result?.outputFileName && job.result.outputFormat;
    const submission = converted
      ? await this.submissions.setProcessed(submissionId, {
          processedKey: job.outputKey!,
          processedFileName: `${(job.input.fileName ?? '').replace(/\.[^.]*$/, '') || 'file'}.${job.result!.outputFileName!.split('.').pop()}`,
          processedMime: mimeOfFormat(job.result!.outputFormat!),
        })
      : await this.submissions.setFailed(submissionId, {
          code: job.errorCode ?? 'processing_failed',
          message: job.errorMessage ?? 'The automatic processing failed; the original file is kept.',
        });
    // Deleted while converting: its converted file belongs to nobody.
    if (!submission) await this.storage.deleteMany(storedOutputKeys(job));
    return submission;
  }

  /** Every step has ended when its pipeline has (AdvancePipeline); `order` is the template's, as the drop gave it. */
  private async templateFinished(job: Job, submissionId: string, order: string[]): Promise<Submission | undefined> {
    const rows = await this.pipelines.findSteps([job.id]);
    const steps = order.map((name) => rows.find((s) => s.stepName === name)).filter((s): s is Job => s !== undefined);
    const end = job.state === 'completed' ? { status: 'ready' as const, processingError: null } : { status: 'failed' as const, processingError: templateError(job, steps) };
    const submission = await this.transactions.run((tx) => this.submissions.recordOutputs(tx, submissionId, templateOutputs(steps), end));
    // Deleted while its template ran: every step's files belong to nobody.
    if (!submission) await this.storage.deleteMany([...storedOutputKeys(job), ...steps.flatMap(storedOutputKeys)]);
    return submission;
  }
}
