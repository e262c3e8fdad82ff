import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A drop's auto-conversion over its owner's in-flight limit is admitted (and paid) but waits for a
 * slot before it is queued: `waiting_for_slot` rows are `queued` yet neither counted nor enqueued.
 */
export class JobWaitingForSlot1764000000100 implements MigrationInterface {
  name = 'JobWaitingForSlot1764000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN waiting_for_slot boolean NOT NULL DEFAULT false');
    await q.query('CREATE INDEX jobs_waiting_idx ON jobs (account_id, created_at) WHERE waiting_for_slot');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs_waiting_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN waiting_for_slot');
  }
}
