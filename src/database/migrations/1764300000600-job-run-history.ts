import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A quote's run-time estimate (JobRunTimes) reads a tool's most recent completed runs, newest
 * first: this index serves that read without touching other tools' rows. Pipeline rows are left
 * out (their times span all their steps; the steps are indexed under their own tools).
 */
export class JobRunHistory1764300000600 implements MigrationInterface {
  name = 'JobRunHistory1764300000600';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX jobs_run_history_idx ON jobs (tool, finished_at DESC) WHERE state = 'completed' AND started_at IS NOT NULL AND steps IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs_run_history_idx');
  }
}
