import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { sweepDuration } from '../metrics/dropline-metrics';
import { deploymentPrefix } from '../queue/queue.module';

/**
 * Background sweeps and purges, one process at a time per deployment: each run takes a Postgres
 * session advisory lock named after the task and the deployment (its queue prefix), on a
 * connection of its own held for the run. A process that finds it taken skips this tick — another
 * process is doing the work. The lock dies with the connection, so a crashed holder frees it.
 * Every run that took the lock is timed in `dropline_sweep_duration_seconds{task}`.
 */
@Injectable()
export class ExclusiveSweeps {
  private readonly logger = new Logger(ExclusiveSweeps.name);
  private readonly prefix: string;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    config: AppConfig,
  ) {
    this.prefix = deploymentPrefix(config);
  }

  /** Runs `work` if no other process of the deployment is running `task`; undefined when it was skipped. */
  async run<T>(task: string, work: () => Promise<T>): Promise<T | undefined> {
    const name = `dropline:${this.prefix}:${task}`;
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [name]);
      if (!locked) return undefined;
      const stop = sweepDuration.startTimer({ task });
      try {
        return await work();
      } finally {
        stop();
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]).catch((err: Error) => this.logger.warn(`Unlock of ${task} failed: ${err.message}`));
      }
    } finally {
      await runner.release();
    }
  }
}
