import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Idempotency1763700000004 implements MigrationInterface {
  name = 'Idempotency1763700000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_records (
        api_key_id text NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL,
        PRIMARY KEY (api_key_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_records_expires_idx ON idempotency_records (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE idempotency_records');
  }
}
