import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transactional outbox for what follows a job's end. The final state write sets
 * `consequences_pending` in the same statement; it is cleared once the consequences (slot
 * promotion, submission update, webhooks) ran, and the job sweeper redelivers rows left pending.
 * `event_key` makes an event's webhook delivery unique, so a redelivery records no second one.
 */
export class JobConsequences1764000000102 implements MigrationInterface {
  name = 'JobConsequences1764000000102';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN consequences_pending boolean NOT NULL DEFAULT false');
    await q.query('CREATE INDEX jobs_consequences_pending_idx ON jobs (finished_at) WHERE consequences_pending');
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN event_key text');
    await q.query('CREATE UNIQUE INDEX webhook_deliveries_event_key_idx ON webhook_deliveries (event_key)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_event_key_idx');
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN event_key');
    await q.query('DROP INDEX jobs_consequences_pending_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN consequences_pending');
  }
}
