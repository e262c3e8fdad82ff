import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A drop's audit log. Rows go with their drop (ON DELETE CASCADE): the log is the drop's, kept as
 * long as it is. `submission_id` has no foreign key: a deleted submission's events stay. The list
 * reads one drop's rows newest first, by `(drop_id, at DESC, id DESC)`.
 */
export class DropEvents1764300000500 implements MigrationInterface {
  name = 'DropEvents1764300000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE drop_events (
        id text NOT NULL,
        drop_id text NOT NULL,
        type text NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL,
        key_id text,
        ip text NOT NULL,
        user_agent text,
        submission_id text,
        detail jsonb NOT NULL DEFAULT '{}',
        CONSTRAINT drop_events_pkey PRIMARY KEY (id),
        CONSTRAINT drop_events_drop_id_fkey FOREIGN KEY (drop_id) REFERENCES drops (id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX drop_events_drop_at_idx ON drop_events (drop_id, at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE drop_events');
  }
}
