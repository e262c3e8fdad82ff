import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1763700000000 implements MigrationInterface {
  name = 'Init1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'max', 'bench')),
        credit_balance bigint NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
        webhook_secret text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        token_prefix text NOT NULL,
        scopes text[] NOT NULL,
        ip_allowlist text[] NOT NULL DEFAULT '{}',
        daily_cap integer,
        monthly_cap integer,
        expires_at timestamptz(3),
        revoked_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE drops (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        emoji text,
        accent_color text,
        is_active boolean NOT NULL DEFAULT true,
        allowed_kinds text NOT NULL DEFAULT 'any',
        max_file_size_mb integer NOT NULL,
        require_sender_email boolean NOT NULL DEFAULT false,
        require_message boolean NOT NULL DEFAULT false,
        auto_convert_to text,
        auto_compress boolean NOT NULL DEFAULT false,
        webhook_url text,
        expires_at timestamptz(3),
        submission_count integer NOT NULL DEFAULT 0 CHECK (submission_count >= 0),
        total_bytes bigint NOT NULL DEFAULT 0 CHECK (total_bytes >= 0),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX drops_account_created_idx ON drops (account_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE drops');
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE accounts');
  }
}
