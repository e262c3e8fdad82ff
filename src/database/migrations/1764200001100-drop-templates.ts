import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A drop runs a saved template on every arrival (issue 20). `drops.process_with` names it; deleting
 * the template clears it (ON DELETE SET NULL: later arrivals are kept as sent), indexed for that
 * cascade. `submission_outputs` holds the files a template's run made of a submission: their
 * storage keys belong to the submission (deleted with it, never expired by age), so retention and
 * the storage reconciliation look them up by key (`submission_outputs_storage_key_idx`, which is
 * also the key-order walk). `position` keeps the template's step order for the submission's view.
 */
export class DropTemplates1764200001100 implements MigrationInterface {
  name = 'DropTemplates1764200001100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE drops ADD COLUMN process_with text');
    await q.query('ALTER TABLE drops ADD CONSTRAINT drops_process_with_fkey FOREIGN KEY (process_with) REFERENCES templates (id) ON DELETE SET NULL');
    await q.query('CREATE INDEX drops_process_with_idx ON drops (process_with) WHERE process_with IS NOT NULL');
    await q.query(`
      CREATE TABLE submission_outputs (
        submission_id text NOT NULL,
        name text NOT NULL,
        position smallint NOT NULL,
        storage_key text NOT NULL,
        file_name text NOT NULL,
        size bigint NOT NULL,
        content_type text NOT NULL,
        CONSTRAINT submission_outputs_pkey PRIMARY KEY (submission_id, name),
        CONSTRAINT submission_outputs_submission_id_fkey FOREIGN KEY (submission_id) REFERENCES submissions (id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX submission_outputs_storage_key_idx ON submission_outputs (storage_key)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE submission_outputs');
    await q.query('DROP INDEX drops_process_with_idx');
    await q.query('ALTER TABLE drops DROP CONSTRAINT drops_process_with_fkey');
    await q.query('ALTER TABLE drops DROP COLUMN process_with');
  }
}
