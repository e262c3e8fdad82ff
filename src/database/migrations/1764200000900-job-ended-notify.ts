import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job reaching a final state (completed, failed, canceled) sends `NOTIFY dropline_job_ended,
 * '<job id>'` in the committing transaction, whichever process wrote it (the worker, the API's
 * cancel, the sweeper), so every API process wakes the requests waiting on that job with
 * `Prefer: wait` (src/jobs/job-waits.ts). Only a move into a final state notifies: progress and
 * heartbeat writes cost nothing.
 */
export class JobEndedNotify1764200000900 implements MigrationInterface {
  name = 'JobEndedNotify1764200000900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION dropline_job_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('dropline_job_ended', NEW.id);
        RETURN NULL;
      END $$`);
    await q.query('DROP TRIGGER IF EXISTS jobs_ended_notify ON jobs');
    await q.query(`CREATE TRIGGER jobs_ended_notify AFTER UPDATE OF state ON jobs
      FOR EACH ROW WHEN (NEW.state IN ('completed', 'failed', 'canceled') AND OLD.state IS DISTINCT FROM NEW.state)
      EXECUTE FUNCTION dropline_job_ended_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER jobs_ended_notify ON jobs');
    await q.query('DROP FUNCTION dropline_job_ended_notify()');
  }
}
