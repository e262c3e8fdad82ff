import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveries1763700000002 implements MigrationInterface {
  name = 'WebhookDeliveries1763700000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        event_type text NOT NULL,
        url text NOT NULL,
        message_id text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts jsonb NOT NULL DEFAULT '[]',
        next_attempt_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE webhook_deliveries');
  }
}
