import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobState as BullJobState, JobsOptions, Queue } from 'bullmq';
import { AppConfig } from '../config/config';
import { deploymentPrefix, QUEUES } from '../queue/queue.module';

export interface MediaJobData {
  jobId: string;
}

/** How long a submission waits for Redis before answering 500 `enqueue_failed`. */
export const ENQUEUE_TIMEOUT_MS = 3000;

/** BullMQ's lowest priority (its largest number). */
const MAX_PRIORITY = 2_097_152;

/**
 * The only place media jobs meet BullMQ. The BullMQ job id is the Dropline job id, so adding
 * the same job twice (request path and sweeper) queues it once. Retries: a worker crash or a
 * transient input error is retried twice with backoff; permanent errors fail at once (see RunJob).
 *
 * Fair share between accounts: every job gets a BullMQ priority of 1 + its rank among its account's
 * jobs in flight on that queue, which the caller read in the statement that admitted or found the
 * job (JobAdmission, JobsRepository's RankedJob) — no query here: this adapter speaks BullMQ only. An account's n-th waiting job
 * runs after every other account's n-th: a second account's first job overtakes a first account's
 * backlog instead of waiting for all of it. Every job has a priority (BullMQ serves jobs without one first).
 */
export const MEDIA_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: 1000,
  removeOnFail: 5000,
};

@Injectable()
export class JobQueue {
  private readonly queues: Record<string, Queue<MediaJobData>>;
  /** This deployment's BullMQ prefix, recorded on each job row so its sweeper reconciles only those. */
  readonly prefix: string;

  constructor(
    @InjectQueue(QUEUES.image) image: Queue<MediaJobData>,
    @InjectQueue(QUEUES.video) video: Queue<MediaJobData>,
    @InjectQueue(QUEUES.audio) audio: Queue<MediaJobData>,
    @InjectQueue(QUEUES.document) document: Queue<MediaJobData>,
    config: AppConfig,
  ) {
    this.queues = { [QUEUES.image]: image, [QUEUES.video]: video, [QUEUES.audio]: audio, [QUEUES.document]: document };
    this.prefix = deploymentPrefix(config);
  }

  /**
   * Queues a committed job at its fair-share priority (a re-enqueue by the sweeper too: the rank
   * counts the jobs created before it). Rejects after ENQUEUE_TIMEOUT_MS rather than waiting for Redis to come back.
   */
  async add(queue: string, jobId: string, fairShareRank: number): Promise<void> {
    const priority = Math.min(MAX_PRIORITY, 1 + fairShareRank);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.queues[queue].add('run', { jobId }, { ...MEDIA_JOB_OPTIONS, jobId, priority }),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('queue did not answer in time')), ENQUEUE_TIMEOUT_MS))),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What the queue knows of a job: 'unknown' when Redis lost it. */
  state(queue: string, jobId: string): Promise<BullJobState | 'unknown'> {
    return this.queues[queue].getJobState(jobId);
  }

  async remove(queue: string, jobId: string): Promise<void> {
    await this.queues[queue].remove(jobId).catch(() => undefined);
  }
}
