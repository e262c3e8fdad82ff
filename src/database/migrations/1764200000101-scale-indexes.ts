import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for tables that grow for months (issue 21, bench/RESULTS.md): every sweeper and list
 * filter reads an index, never a whole table. `jobs` gets free space on each page (fillfactor) so
 * the updates that touch no indexed column (progress, heartbeat, refunded) stay HOT.
 */
export class ScaleIndexes1764200000101 implements MigrationInterface {
  name = 'ScaleIndexes1764200000101';

  async up(q: QueryRunner): Promise<void> {
    // The webhook sweeper's overdue query and GET /v1/webhook-deliveries?status=pending.
    await q.query(`CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query('CREATE INDEX webhook_deliveries_account_status_idx ON webhook_deliveries (account_id, status, created_at DESC, id DESC)');
    // GET /v1/jobs?state=…&tool=… for a key with many jobs.
    await q.query('CREATE INDEX jobs_key_state_tool_idx ON jobs (api_key_id, state, tool, created_at DESC, id DESC)');
    await q.query('CREATE INDEX jobs_key_tool_idx ON jobs (api_key_id, tool, created_at DESC, id DESC)');
    // A state alone: walking the key's index in order and filtering took 4.9 s for a key with 500 k jobs and none failed.
    await q.query('CREATE INDEX jobs_key_state_idx ON jobs (api_key_id, state, created_at DESC, id DESC)');
    // Submissions filtered by isStarred / isArchived in a big drop.
    await q.query('CREATE INDEX submissions_drop_starred_idx ON submissions (drop_id, created_at DESC, id DESC) WHERE is_starred');
    await q.query('CREATE INDEX submissions_drop_archived_idx ON submissions (drop_id, is_archived, created_at DESC, id DESC)');
    // The withdraw on enqueue failure deletes the records naming a job.
    await q.query(`CREATE INDEX idempotency_records_job_idx ON idempotency_records ((response->>'id'))`);
    await q.query('ALTER TABLE jobs SET (fillfactor = 85)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs RESET (fillfactor)');
    await q.query('DROP INDEX idempotency_records_job_idx');
    await q.query('DROP INDEX submissions_drop_archived_idx');
    await q.query('DROP INDEX submissions_drop_starred_idx');
    await q.query('DROP INDEX jobs_key_state_idx');
    await q.query('DROP INDEX jobs_key_tool_idx');
    await q.query('DROP INDEX jobs_key_state_tool_idx');
    await q.query('DROP INDEX webhook_deliveries_account_status_idx');
    await q.query('DROP INDEX webhook_deliveries_pending_idx');
  }
}
