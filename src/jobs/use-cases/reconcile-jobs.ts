import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../common/clock';
import { ExclusiveSweeps } from '../../sweeps/exclusive-sweeps';
import { UploadsService } from '../../uploads/uploads.service';
import { JobDispatch } from '../job-dispatch';
import { JobQueue } from '../job-queue';
import { JobsRepository } from '../jobs.repository';
import { SettleJob } from './settle-job';

const SWEEP_EVERY_MS = 15_000;
const STALE_TEMP_MS = 3600_000;
/** A row younger than this may still be between its commit and its enqueue. */
const ENQUEUE_GRACE_MS = 10_000;
/** A job ended this long ago whose consequences are still pending lost them (they threw, or its worker died). */
export const CONSEQUENCES_GRACE_MS = 30_000;

/**
 * The reconcile use case (the job sweeper), every SWEEP_EVERY_MS in every worker, top to bottom
 * in `sweep`. Postgres is the truth about jobs, so it reconciles it with the queue: an accepted job whose enqueue never happened (the API died in between) is enqueued, and so
 * is one the queue has lost (Redis restarted empty or flushed); a job the queue has failed (stalled
 * too often) or finished without its result reaching Postgres is failed and refunded; a finished
 * job whose consequences (SettleJob) are still pending has them delivered again. It sees only
 * its own deployment's jobs (`queue_prefix`): another deployment sharing the database owns the rest.
 */
@Injectable()
export class ReconcileJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReconcileJobs.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly jobs: JobsRepository,
    private readonly queue: JobQueue,
    private readonly settle: SettleJob,
    private readonly dispatch: JobDispatch,
    private readonly uploads: UploadsService,
    private readonly clock: Clock,
    private readonly sweeps: ExclusiveSweeps,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
    void this.removeStaleTempDirs();
  }

  /**
   * A worker killed mid-job leaves its temp dir behind. Older than any job can run (the media
   * time limit is 10 min), such a dir belongs to nobody. Compared with file mtimes, so wall time, not the Clock.
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
      // One worker of the deployment sweeps at a time (a Postgres advisory lock); the others skip the tick.
      await this.sweeps.run('job-sweeper', async () => {
        await this.enqueueForgotten();
        await this.promoteWaiting();
        await this.failLost();
        await this.settleConsequences();
        await this.uploads.purgeExpired();
      });
    } catch (err) {
      this.logger.warn(`Sweep failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private async enqueueForgotten(): Promise<void> {
    const rows = await this.jobs.findNeverEnqueued(this.queue.prefix, new Date(this.clock.now().getTime() - ENQUEUE_GRACE_MS), 200);
    for (const job of rows) {
      await this.queue.add(job.queue, job.id, job.fairShareRank);
      await this.jobs.markEnqueued(job.id, this.clock.now());
      this.logger.log(`Enqueued job ${job.id}, accepted but never queued`);
    }
  }

  /** A slot freed whose promotion was lost (the worker died right after the job ended). */
  private async promoteWaiting(): Promise<void> {
    for (const accountId of await this.jobs.accountsWaiting(this.queue.prefix, 200)) await this.dispatch.promoteWaiting(accountId);
  }

  /** The outbox's redelivery: at least once, each consequence being idempotent (SettleJob). */
  private async settleConsequences(): Promise<void> {
    const rows = await this.jobs.findConsequencesPending(this.queue.prefix, new Date(this.clock.now().getTime() - CONSEQUENCES_GRACE_MS), 200);
    for (const job of rows) {
      if (await this.settle.settle(job)) this.logger.warn(`Job ${job.id} ended ${job.state} but its consequences were pending: delivered again`);
    }
  }

  private async failLost(): Promise<void> {
    const rows = await this.jobs.findInFlightEnqueuedBefore(this.queue.prefix, new Date(this.clock.now().getTime() - ENQUEUE_GRACE_MS), 500);
    for (const job of rows) {
      const state = await this.queue.state(job.queue, job.id);
      if (state === 'unknown') {
        // Redis lost it (restarted without persistence, flushed): Postgres still holds the accepted,
        // paid job, so queue it again rather than failing it (fault test redis-outage). A running
        // row is run again too: the runner accepts 'running', and its writes are keyed by job id.
        await this.queue.add(job.queue, job.id, job.fairShareRank);
        this.logger.warn(`Job ${job.id} was ${job.state} in Postgres but unknown to the queue: enqueued again`);
        continue;
      }
      if (state === 'failed' || state === 'completed') {
        // Completed in the queue but not in Postgres means the runner died after its last write.
        await this.settle.fail(job.id, 'processing_failed', 'The job was lost by its worker and could not be finished.');
        this.logger.warn(`Job ${job.id} was ${state} in the queue but ${job.state} in Postgres: failed and refunded`);
      }
    }
  }
}
