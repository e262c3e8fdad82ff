import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops people can trust (issue 22): a password (scrypt hash), limits on the count and total size
 * of submissions, allowed file extensions, a grace period after `expires_at`; submissions record
 * whether they arrived late and their malware scan (status, signature, when, last attempt).
 */
export class DropTrust1764200000300 implements MigrationInterface {
  name = 'DropTrust1764200000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE drops
      ADD COLUMN password_hash text,
      ADD COLUMN max_submissions integer,
      ADD COLUMN max_total_mb integer,
      ADD COLUMN allowed_extensions text[],
      ADD COLUMN accept_late_until timestamptz(3)`);
    await q.query(`ALTER TABLE submissions
      ADD COLUMN is_late boolean NOT NULL DEFAULT false,
      ADD COLUMN scan_status text NOT NULL DEFAULT 'unscanned',
      ADD COLUMN scan_signature text,
      ADD COLUMN scanned_at timestamptz(3),
      ADD COLUMN scan_attempted_at timestamptz(3)`);
    // The rescan sweep reads only the pending few.
    await q.query(`CREATE INDEX submissions_scan_pending ON submissions (scan_attempted_at NULLS FIRST) WHERE scan_status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX submissions_scan_pending');
    await q.query('ALTER TABLE submissions DROP COLUMN is_late, DROP COLUMN scan_status, DROP COLUMN scan_signature, DROP COLUMN scanned_at, DROP COLUMN scan_attempted_at');
    await q.query(
      'ALTER TABLE drops DROP COLUMN password_hash, DROP COLUMN max_submissions, DROP COLUMN max_total_mb, DROP COLUMN allowed_extensions, DROP COLUMN accept_late_until',
    );
  }
}
