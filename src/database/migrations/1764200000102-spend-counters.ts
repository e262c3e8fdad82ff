import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per key and UTC day, the credits debited (refunds not deducted, decision §2), kept in the
 * debit's transaction: a spend-cap check reads at most 31 rows instead of summing a month of ledger.
 */
export class SpendCounters1764200000102 implements MigrationInterface {
  name = 'SpendCounters1764200000102';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE spend_counters (
        api_key_id text NOT NULL,
        day date NOT NULL,
        spent bigint NOT NULL,
        PRIMARY KEY (api_key_id, day)
      )`);
    await q.query(`
      INSERT INTO spend_counters (api_key_id, day, spent)
      SELECT api_key_id, (created_at AT TIME ZONE 'UTC')::date, -SUM(delta)
        FROM credit_ledger WHERE reason = 'job_debit' AND api_key_id IS NOT NULL
       GROUP BY 1, 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE spend_counters');
  }
}
