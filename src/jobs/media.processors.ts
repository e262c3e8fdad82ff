import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Type } from '@nestjs/common';
import type { Job as BullJob, WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/config';
import { withRunningJob } from '../logging/fatal-errors';
import { closeWorkerFirst } from '../queue/close-worker-first';
import { redisOutageLog } from '../queue/queue.module';
import { type ToolKind, toolQueues } from '../tools/tool-registry';
import type { MediaJobData } from './job-queue';
import { RunJob } from './use-cases/run-job';

/**
 * One BullMQ worker per media queue the tools use (spec: `<kind>-standard-queue`). Concurrency per
 * queue comes from the config (IMAGE_/AUDIO_/VIDEO_/DOCUMENT_WORKER_CONCURRENCY): twice the CPU count for
 * images (a job waits about as long as it resizes), the CPU count for audio and documents (one LibreOffice
 * per job), one for video (ffmpeg uses every core for one video).
 */
abstract class MediaProcessor extends WorkerHost {
  constructor(
    protected readonly runner: RunJob,
    private readonly config: AppConfig,
    queue: string,
    options: Partial<WorkerOptions>,
    concurrency: number,
  ) {
    super();
    // Concurrency, lock and stalled-check timings come from the config (WORKER_LOCK_DURATION_MS,
    // WORKER_STALLED_INTERVAL_MS). @nestjs/bullmq builds the Worker from the class's @Processor
    // metadata at module init, after DI has constructed this instance: re-declare it with them.
    Processor(queue, {
      ...options,
      concurrency,
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
    })(new.target);
  }

  process(job: BullJob<MediaJobData>): Promise<void> {
    // An uncaught exception while it runs (say, from a socket of its input fetch) names this job.
    return withRunningJob(job.data.jobId, () => this.runner.process(job));
  }

  /** Shutdown, first step: see closeWorkerFirst. */
  onModuleDestroy(): Promise<void> {
    return closeWorkerFirst(this);
  }

  /** A worker without an 'error' listener prints every reconnect attempt of a Redis outage with its stack. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    redisOutageLog(this.config).failed(error, 'media worker');
  }

  /**
   * BullMQ gave up: retries exhausted, or the job stalled more than MAX_STALLED_COUNT times — its
   * workers died with it (a poison input), so it fails and is refunded instead of killing the next one.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: BullJob<MediaJobData> | undefined, error: Error): Promise<void> {
    if (!job) return;
    if (/stalled/.test(error.message)) {
      await this.runner.fail(job.data.jobId, 'processing_failed', 'the worker stopped while processing this input');
      return;
    }
    if (job.attemptsMade < (job.opts.attempts ?? 1)) return;
    await this.runner.fail(job.data.jobId, 'processing_failed', 'Processing failed after several attempts.');
  }
}

/**
 * A job whose worker stopped (crashed, killed) while running it is run again once; when it stalls
 * its worker a second time it fails (BullMQ counts the stalls and fails the job past this count).
 */
const MAX_STALLED_COUNT = 1;

const MEDIA_WORKER: Partial<WorkerOptions> = { maxStalledCount: MAX_STALLED_COUNT };

/** Jobs at once per queue, by the kind of its tools (IMAGE_/AUDIO_/VIDEO_WORKER_CONCURRENCY). */
const CONCURRENCY: Record<ToolKind, (config: AppConfig) => number> = {
  image: (config) => config.IMAGE_WORKER_CONCURRENCY,
  video: (config) => config.VIDEO_WORKER_CONCURRENCY,
  audio: (config) => config.AUDIO_WORKER_CONCURRENCY,
  document: (config) => config.DOCUMENT_WORKER_CONCURRENCY,
  // A tool of any kind (media-info) shares the queue of the tools listed before it; alone, it reads headers only.
  any: (config) => config.IMAGE_WORKER_CONCURRENCY,
};

/** The consumer of one queue (a class per queue: Nest knows providers by class). */
function mediaProcessor(queue: string, kind: ToolKind): Type<MediaProcessor> {
  @Processor(queue, MEDIA_WORKER)
  class QueueProcessor extends MediaProcessor {
    constructor(runner: RunJob, config: AppConfig) {
      super(runner, config, queue, MEDIA_WORKER, CONCURRENCY[kind](config));
    }
  }
  Object.defineProperty(QueueProcessor, 'name', { value: `MediaProcessor[${queue}]` });
  return QueueProcessor;
}

/** One consumer per queue the listed tools use (src/tools/tool-list.ts). */
export const MEDIA_PROCESSORS = toolQueues().map(({ queue, kind }) => mediaProcessor(queue, kind));
