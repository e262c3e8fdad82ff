import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each job row names the deployment (its BullMQ prefix) that queued it, so a sweeper reconciles
 * only its own deployment's jobs when several share one database (parallel test runs, staging).
 * Rows from before this column (NULL) are swept by every deployment, as they were.
 */
export class JobDeployment1763800000000 implements MigrationInterface {
  name = 'JobDeployment1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN queue_prefix text`);
    await q.query(`CREATE INDEX jobs_sweep_idx ON jobs (queue_prefix) WHERE state IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs_sweep_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN queue_prefix');
  }
}
