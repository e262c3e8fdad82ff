import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repository } from 'typeorm';
import { QUEUES } from '../queue/queue.module';
import { UploadsService } from '../uploads/uploads.service';
import { JobQueue } from './job-queue';
import { JobRunner } from './job-runner';
import { Job } from './job.entity';

const SWEEP_EVERY_MS = 15_000;
const STALE_TEMP_MS = 3600_000;
/** A row younger than this may still be between its commit and its enqueue. */
const ENQUEUE_GRACE_MS = 10_000;

/**
 * Runs in every worker. Postgres is the truth about jobs, so the sweeper reconciles it with the
 * queue: an accepted job whose enqueue never happened (the API died in between) is enqueued, and so
 * is one the queue has lost (Redis restarted empty or flushed); a job the queue has failed (stalled
 * too often) or finished without its result reaching Postgres is failed and refunded.
 */
@Injectable()
export class JobSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobSweeper.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    @InjectQueue(QUEUES.image) private readonly image: Queue,
    @InjectQueue(QUEUES.video) private readonly video: Queue,
    @InjectQueue(QUEUES.audio) private readonly audio: Queue,
    private readonly queue: JobQueue,
    private readonly runner: JobRunner,
    private readonly uploads: UploadsService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
    void this.removeStaleTempDirs();
  }

  /**
   * A worker killed mid-job leaves its temp dir behind. Older than any job can run (the media
   * time limit is 10 min), such a dir belongs to nobody.
   */
  private async removeStaleTempDirs(): Promise<void> {
    const before = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
      if (!name.startsWith('dropline-job_')) continue;
      const path = join(tmpdir(), name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < before) await rm(path, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.enqueueForgotten();
      await this.failLost();
      await this.uploads.purgeExpired();
    } catch (err) {
      this.logger.warn(`Sweep failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private async enqueueForgotten(): Promise<void> {
    const rows: Job[] = await this.jobs
      .createQueryBuilder('j')
      .where("j.state = 'queued' AND j.enqueued_at IS NULL AND j.created_at < :before", { before: new Date(Date.now() - ENQUEUE_GRACE_MS) })
      .limit(200)
      .getMany();
    for (const job of rows) {
      await this.queue.add(job.queue, job.id);
      await this.jobs.update({ id: job.id }, { enqueuedAt: new Date() });
      this.logger.log(`Enqueued job ${job.id}, accepted but never queued`);
    }
  }

  private async failLost(): Promise<void> {
    const rows: Job[] = await this.jobs
      .createQueryBuilder('j')
      .where("j.state IN ('queued', 'running') AND j.enqueued_at IS NOT NULL AND j.enqueued_at < :before", { before: new Date(Date.now() - ENQUEUE_GRACE_MS) })
      .orderBy('j.enqueued_at', 'ASC')
      .limit(500)
      .getMany();
    const queues: Record<string, Queue> = { [QUEUES.image]: this.image, [QUEUES.video]: this.video, [QUEUES.audio]: this.audio };
    for (const job of rows) {
      const state = await queues[job.queue].getJobState(job.id);
      if (state === 'unknown') {
        // Redis lost it (restarted without persistence, flushed): Postgres still holds the accepted,
        // paid job, so queue it again rather than failing it (fault test redis-outage). A running
        // row is run again too: the runner accepts 'running', and its writes are keyed by job id.
        await this.queue.add(job.queue, job.id);
        this.logger.warn(`Job ${job.id} was ${job.state} in Postgres but unknown to the queue: enqueued again`);
        continue;
      }
      if (state === 'failed' || state === 'completed') {
        // Completed in the queue but not in Postgres means the runner died after its last write.
        await this.runner.fail(job.id, 'processing_failed', 'The job was lost by its worker and could not be finished.');
        this.logger.warn(`Job ${job.id} was ${state} in the queue but ${job.state} in Postgres: failed and refunded`);
      }
    }
  }
}
