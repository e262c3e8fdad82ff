import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The secret a rotation replaced, still signing deliveries for 24 h beside the new one. */
export class WebhookSecretRotation1763950000000 implements MigrationInterface {
  name = 'WebhookSecretRotation1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE accounts ADD COLUMN previous_webhook_secret text, ADD COLUMN webhook_secret_rotated_at timestamptz(3)');
    // The account's ledger page reads newest first.
    await q.query('CREATE INDEX credit_ledger_account_idx ON credit_ledger (account_id, created_at DESC, id DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX credit_ledger_account_idx');
    await q.query('ALTER TABLE accounts DROP COLUMN previous_webhook_secret, DROP COLUMN webhook_secret_rotated_at');
  }
}
