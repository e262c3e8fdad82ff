import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The run that holds a job (`run_id`) and its last sign of life: a job queued a second time while
 * its first worker is alive waits for that run instead of running beside it.
 */
export class JobRunLease1764000000101 implements MigrationInterface {
  name = 'JobRunLease1764000000101';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN run_id text, ADD COLUMN run_heartbeat_at timestamptz(3)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs DROP COLUMN run_id, DROP COLUMN run_heartbeat_at');
  }
}
