import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention (docs/retention.md): a job's output is stamped with when it expires (its plan's
 * retention, at the first purge after it was made), then purged; `output_expired_at` says it was.
 * `storage_tombstones` remembers purged files for as long as a signed URL to them can live (7 days),
 * so such a URL answers 410 `output_expired`, not 404. `pending_file_deletions` is the durable
 * list of stored files whose row is gone: removed after commit, retried by the purge until gone.
 */
export class Retention1764200000100 implements MigrationInterface {
  name = 'Retention1764200000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN output_expires_at timestamptz(3), ADD COLUMN output_expired_at timestamptz(3)');
    // Outputs not yet stamped (the few made since the last purge); an auto-conversion's output is its submission's file.
    await q.query('CREATE INDEX jobs_output_unstamped_idx ON jobs (finished_at) WHERE output_key IS NOT NULL AND output_expires_at IS NULL AND submission_id IS NULL');
    await q.query('CREATE INDEX jobs_output_expiry_idx ON jobs (output_expires_at) WHERE output_expires_at IS NOT NULL AND output_expired_at IS NULL');
    // Finished job rows, oldest first: the job-row purge.
    await q.query(`CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE state IN ('completed', 'failed', 'canceled')`);
    await q.query(`
      CREATE TABLE storage_tombstones (
        storage_key text PRIMARY KEY,
        reason text NOT NULL,
        purged_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX storage_tombstones_purged_idx ON storage_tombstones (purged_at)');
    await q.query(`
      CREATE TABLE pending_file_deletions (
        storage_key text PRIMARY KEY,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query('CREATE INDEX pending_file_deletions_created_idx ON pending_file_deletions (created_at)');
    // Which row references a stored file: the storage reconciliation's lookups.
    await q.query('CREATE INDEX jobs_output_key_idx ON jobs (output_key) WHERE output_key IS NOT NULL AND output_expired_at IS NULL');
    await q.query('CREATE INDEX submissions_storage_key_idx ON submissions (storage_key)');
    await q.query('CREATE INDEX submissions_processed_key_idx ON submissions (processed_key) WHERE processed_key IS NOT NULL');
    await q.query('CREATE INDEX uploads_storage_key_idx ON uploads (storage_key)');
    // Delivery logs, oldest first, once settled: the delivery purge.
    await q.query(`CREATE INDEX webhook_deliveries_settled_idx ON webhook_deliveries (created_at) WHERE status <> 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_settled_idx');
    await q.query('DROP INDEX uploads_storage_key_idx');
    await q.query('DROP INDEX submissions_processed_key_idx');
    await q.query('DROP INDEX submissions_storage_key_idx');
    await q.query('DROP INDEX jobs_output_key_idx');
    await q.query('DROP TABLE pending_file_deletions');
    await q.query('DROP TABLE storage_tombstones');
    await q.query('DROP INDEX jobs_finished_idx');
    await q.query('DROP INDEX jobs_output_expiry_idx');
    await q.query('DROP INDEX jobs_output_unstamped_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN output_expired_at, DROP COLUMN output_expires_at');
  }
}
