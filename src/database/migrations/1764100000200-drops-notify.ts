import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to a drop row (its settings, its submission counters, its deletion) sends
 * `NOTIFY dropline_drops, '<slug>'` in the same transaction, so each API process drops its cached
 * copy (src/drops/drop-cache.ts) the moment the change commits, whoever wrote it. An insert needs
 * no notification: the cache never remembers a missing drop.
 */
export class DropsNotify1764100000200 implements MigrationInterface {
  name = 'DropsNotify1764100000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION dropline_drops_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('dropline_drops', OLD.slug);
        RETURN NULL;
      END $$`);
    await q.query('DROP TRIGGER IF EXISTS drops_notify ON drops');
    await q.query(`CREATE TRIGGER drops_notify AFTER UPDATE OR DELETE ON drops
      FOR EACH ROW EXECUTE FUNCTION dropline_drops_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER drops_notify ON drops');
    await q.query('DROP FUNCTION dropline_drops_notify()');
  }
}
