import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyRepository } from '../jobs/idempotency.repository';
import { JobsRepository } from '../jobs/jobs.repository';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import { purgedTotal } from '../metrics/dropline-metrics';
import { deploymentPrefix } from '../queue/queue.module';
import { FileDeletions } from '../storage/file-deletions';
import { PendingFileDeletionsRepository } from '../storage/pending-file-deletions.repository';
import { StorageTombstonesRepository } from '../storage/storage-tombstones.repository';
import { ExclusiveSweeps } from '../sweeps/exclusive-sweeps';
import { outputRetention, TOMBSTONE_RETENTION_MS } from './retention-policy';

/** Rows one statement touches: small enough that a batch is a few ms and holds few locks. */
export const PURGE_BATCH = 500;
/** Batches of one kind per tick: a backlog (a retention shortened) drains over several ticks, never in one long run. */
const MAX_BATCHES_PER_TICK = 20;
/** A pending deletion younger than this is still in the hands of the request that recorded it. */
const INLINE_DELETION_GRACE_MS = 60_000;

/**
 * Retention (docs/retention.md), every PURGE_INTERVAL, in one process per deployment
 * (ExclusiveSweeps): job outputs past their plan's retention (the job row stays, with
 * `result.expiredAt`), job rows past JOB_RETENTION, settled webhook deliveries past
 * DELIVERY_RETENTION, idempotency records past their expiry, and stored files whose rows are
 * gone but whose deletion failed. Submissions are the owner's: never purged by age.
 */
@Injectable()
export class RetentionPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionPurge.name);
  private readonly prefix: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly config: AppConfig,
    private readonly jobs: JobsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly tombstones: StorageTombstonesRepository,
    private readonly pending: PendingFileDeletionsRepository,
    private readonly files: FileDeletions,
    private readonly transactions: Transactions,
    private readonly sweeps: ExclusiveSweeps,
    private readonly clock: Clock,
  ) {
    this.prefix = deploymentPrefix(config);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.PURGE_INTERVAL);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One purge (never two at once in a process, one per deployment); what it removed, by kind, or undefined when another process holds it. */
  tick(): Promise<Record<string, number> | undefined> {
    const run = (this.running ??= this.sweeps
      .run('retention-purge', () => this.purge())
      .catch((err: Error) => {
        this.logger.warn(`Purge failed: ${err.message}`);
        return undefined;
      })
      .finally(() => (this.running = undefined)));
    return run as Promise<Record<string, number> | undefined>;
  }

  private async purge(): Promise<Record<string, number>> {
    const now = this.clock.now();
    const done = {
      output: await this.batches('output', () => this.expireOutputs(now)),
      job: await this.batches('job', () => this.deleteJobs(new Date(now.getTime() - this.config.JOB_RETENTION))),
      delivery: await this.batches('delivery', () => this.deliveries.deleteSettled(new Date(now.getTime() - this.config.DELIVERY_RETENTION), PURGE_BATCH)),
      idempotency: await this.batches('idempotency', () => this.idempotency.deleteExpired(now, PURGE_BATCH)),
      tombstone: await this.batches('tombstone', () => this.tombstones.deleteOlderThan(new Date(now.getTime() - TOMBSTONE_RETENTION_MS), PURGE_BATCH)),
      file: await this.batches('file', () => this.retryFileDeletions(new Date(now.getTime() - INLINE_DELETION_GRACE_MS))),
    };
    const total = Object.values(done).reduce((a, b) => a + b, 0);
    if (total > 0)
      this.logger.log(
        `Purged ${Object.entries(done)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}`,
      );
    return done;
  }

  /** Runs `batch` until it returns less than a full batch, or MAX_BATCHES_PER_TICK times; counted in the metric as each batch ends. */
  private async batches(kind: string | undefined, batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
      const n = await batch();
      total += n;
      if (kind && n > 0) purgedTotal.inc({ kind }, n);
      if (n < PURGE_BATCH) break;
    }
    return total;
  }

  /**
   * Stamps new outputs with their expiry, then expires the due ones: in one transaction the job
   * rows are marked, a tombstone (410 for old signed URLs) and a pending deletion are recorded;
   * after it commits the files go.
   */
  private async expireOutputs(now: Date): Promise<number> {
    await this.batches(undefined, () => this.jobs.stampOutputExpiry(this.prefix, outputRetention(this.config), PURGE_BATCH));
    const keys = await this.transactions.run(async (tx) => {
      const expired = await this.jobs.expireOutputs(tx, this.prefix, now, PURGE_BATCH);
      await this.tombstones.record(tx, expired, 'output_expired', now);
      await this.files.record(tx, expired);
      return expired;
    });
    await this.files.removeNow(keys);
    return keys.length;
  }

  private async deleteJobs(before: Date): Promise<number> {
    const { deleted, outputKeys } = await this.transactions.run(async (tx) => {
      const found = await this.jobs.deleteFinished(tx, this.prefix, before, PURGE_BATCH);
      await this.files.record(tx, found.outputKeys);
      return found;
    });
    await this.files.removeNow(outputKeys);
    return deleted;
  }

  private async retryFileDeletions(before: Date): Promise<number> {
    const keys = await this.pending.due(before, PURGE_BATCH);
    return (await this.files.removeNow(keys)) ? keys.length : 0;
  }
}
