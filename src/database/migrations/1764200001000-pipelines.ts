import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs with steps (issue 20, docs/adr/0006-pipelines.md). A pipeline is one job row (`steps`: its
 * step names in the order given) and one row per step (`pipeline_id`, `step_name`, `step_input`),
 * each an ordinary job its tool's worker runs. A step that reads another step's output is
 * `step_blocked` until that step has completed (the sweeper never enqueues a blocked step). A
 * refund of one step is a ledger line of the pipeline job naming the step (`credit_ledger.step`),
 * once per step.
 */
export class Pipelines1764200001000 implements MigrationInterface {
  name = 'Pipelines1764200001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN pipeline_id text CONSTRAINT jobs_pipeline_id_fkey REFERENCES jobs(id) ON DELETE CASCADE');
    await q.query('ALTER TABLE jobs ADD COLUMN step_name text');
    await q.query('ALTER TABLE jobs ADD COLUMN step_input text');
    await q.query('ALTER TABLE jobs ADD COLUMN step_blocked boolean NOT NULL DEFAULT false');
    await q.query('ALTER TABLE jobs ADD COLUMN steps jsonb');
    await q.query('CREATE INDEX jobs_pipeline_idx ON jobs (pipeline_id) WHERE pipeline_id IS NOT NULL');
    await q.query('ALTER TABLE credit_ledger ADD COLUMN step text');
    // A job is refunded once; a pipeline once per step.
    await q.query('DROP INDEX credit_ledger_refund_once');
    await q.query(`CREATE UNIQUE INDEX credit_ledger_refund_once ON credit_ledger (job_id, (COALESCE(step, ''))) WHERE reason = 'job_refund'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX credit_ledger_refund_once');
    await q.query('ALTER TABLE credit_ledger DROP COLUMN step');
    await q.query(`CREATE UNIQUE INDEX credit_ledger_refund_once ON credit_ledger (job_id) WHERE reason = 'job_refund'`);
    await q.query('DROP INDEX jobs_pipeline_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN steps, DROP COLUMN step_blocked, DROP COLUMN step_input, DROP COLUMN step_name, DROP COLUMN pipeline_id');
  }
}
