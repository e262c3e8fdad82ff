import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job as BullJob } from 'bullmq';
import { QUEUES } from '../queue/queue.module';
import type { MediaJobData } from './job-queue';
import { JobRunner } from './job-runner';

/**
 * One BullMQ worker per media queue (spec: `<kind>-standard-queue`). Concurrency suits a
 * 2-core machine: libvips threads internally, ffmpeg uses every core for one video.
 */
abstract class MediaProcessor extends WorkerHost {
  constructor(protected readonly runner: JobRunner) {
    super();
  }

  process(job: BullJob<MediaJobData>): Promise<void> {
    return this.runner.process(job);
  }

  /** BullMQ gave up (retries exhausted, or the job stalled too often after worker crashes). */
  @OnWorkerEvent('failed')
  async onFailed(job: BullJob<MediaJobData> | undefined, error: Error): Promise<void> {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1) && !/stalled/.test(error.message)) return;
    await this.runner.fail(job.data.jobId, 'processing_failed', 'Processing failed after several attempts.');
  }
}

@Processor(QUEUES.image, { concurrency: 2, maxStalledCount: 2 })
export class ImageProcessor extends MediaProcessor {
  constructor(runner: JobRunner) {
    super(runner);
  }
}

@Processor(QUEUES.video, { concurrency: 1, maxStalledCount: 2 })
export class VideoProcessor extends MediaProcessor {
  constructor(runner: JobRunner) {
    super(runner);
  }
}

@Processor(QUEUES.audio, { concurrency: 2, maxStalledCount: 2 })
export class AudioProcessor extends MediaProcessor {
  constructor(runner: JobRunner) {
    super(runner);
  }
}
