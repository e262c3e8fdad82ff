import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Submissions1763700000001 implements MigrationInterface {
  name = 'Submissions1763700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE submissions (
        id text PRIMARY KEY,
        drop_id text NOT NULL REFERENCES drops(id) ON DELETE CASCADE,
        sender_name text,
        sender_email text,
        message text,
        file_name text NOT NULL,
        file_size bigint NOT NULL,
        file_mime text NOT NULL,
        file_kind text NOT NULL,
        storage_key text NOT NULL,
        status text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'processing', 'failed')),
        processed_key text,
        processed_file_name text,
        processed_mime text,
        is_read boolean NOT NULL DEFAULT false,
        is_starred boolean NOT NULL DEFAULT false,
        is_archived boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // Keyset pagination, newest first, per drop.
    await q.query(`CREATE INDEX submissions_drop_created_idx ON submissions (drop_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE submissions');
  }
}
