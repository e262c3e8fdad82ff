import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Saved pipelines of an account (issue 20): a name and the steps, run by jobs and drops. */
export class Templates1764200000400 implements MigrationInterface {
  name = 'Templates1764200000400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE templates (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        name text NOT NULL,
        steps jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT templates_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX templates_account_created_idx ON templates (account_id, created_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE templates');
  }
}
