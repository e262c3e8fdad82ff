import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a submission's automatic processing did not happen or failed: {code, message}. */
export class SubmissionProcessingError1763800000011 implements MigrationInterface {
  name = 'SubmissionProcessingError1763800000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions ADD COLUMN processing_error jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE submissions DROP COLUMN processing_error');
  }
}
