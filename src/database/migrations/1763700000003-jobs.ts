import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Jobs1763700000003 implements MigrationInterface {
  name = 'Jobs1763700000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uploads (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        storage_key text NOT NULL,
        file_name text NOT NULL,
        file_size bigint NOT NULL,
        file_mime text NOT NULL,
        file_kind text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        expires_at timestamptz(3) NOT NULL
      )`);
    await q.query(`CREATE INDEX uploads_expires_idx ON uploads (expires_at)`);
    await q.query(`
      CREATE TABLE jobs (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id text REFERENCES api_keys(id) ON DELETE CASCADE,
        tool text NOT NULL,
        queue text NOT NULL,
        state text NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed', 'canceled')),
        progress integer NOT NULL DEFAULT 0,
        input jsonb NOT NULL,
        options jsonb NOT NULL DEFAULT '{}',
        webhook_url text,
        cost integer NOT NULL,
        result jsonb,
        output_key text,
        error_code text,
        error_message text,
        refunded boolean NOT NULL DEFAULT false,
        enqueued_at timestamptz(3),
        submission_id text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        started_at timestamptz(3),
        finished_at timestamptz(3)
      )`);
    await q.query(`CREATE INDEX jobs_key_created_idx ON jobs (api_key_id, created_at DESC, id DESC)`);
    // In-flight jobs per account (concurrency limit) and the enqueue sweeper.
    await q.query(`CREATE INDEX jobs_in_flight_idx ON jobs (account_id) WHERE state IN ('queued', 'running')`);
    await q.query(`CREATE INDEX jobs_unenqueued_idx ON jobs (created_at) WHERE enqueued_at IS NULL AND state = 'queued'`);
    await q.query(`
      CREATE TABLE credit_ledger (
        id bigserial PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id text,
        job_id text,
        delta integer NOT NULL,
        reason text NOT NULL CHECK (reason IN ('job_debit', 'job_refund', 'grant')),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // Spend caps sum a key's debits per UTC day and month.
    await q.query(`CREATE INDEX credit_ledger_key_idx ON credit_ledger (api_key_id, created_at) WHERE reason = 'job_debit'`);
    await q.query(`CREATE UNIQUE INDEX credit_ledger_refund_once ON credit_ledger (job_id) WHERE reason = 'job_refund'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE credit_ledger');
    await q.query('DROP TABLE jobs');
    await q.query('DROP TABLE uploads');
  }
}
