import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs with several outputs (issue 19): the storage keys of a job's outputs beyond the main one
 * (`output_key`), by output name. Retention and the storage reconciliation look them up by key (the
 * GIN index over the key values) and walk them (the partial index: only live multi-output jobs).
 */
export class JobOutputs1764200000600 implements MigrationInterface {
  name = 'JobOutputs1764200000600';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE jobs ADD COLUMN output_keys jsonb');
    await q.query(`CREATE INDEX jobs_output_keys_idx ON jobs USING gin (jsonb_path_query_array(output_keys, '$.*')) WHERE output_keys IS NOT NULL AND output_expired_at IS NULL`);
    await q.query('CREATE INDEX jobs_live_output_keys_idx ON jobs (id) WHERE output_keys IS NOT NULL AND output_expired_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs_live_output_keys_idx');
    await q.query('DROP INDEX jobs_output_keys_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN output_keys');
  }
}
