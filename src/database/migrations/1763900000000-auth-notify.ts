import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to a key (revocation, expiry, scopes, allowlist, caps, deletion) and every change
 * of an account's plan or deletion sends `NOTIFY dropline_auth` in the same transaction, so each
 * API process drops its cached copy (src/auth/api-key-cache.ts) the moment the change commits,
 * whoever wrote it: the admin CLI, a migration or hand-written SQL. Credit balance changes do not
 * notify: the cache does not answer for the balance.
 */
export class AuthNotify1763900000000 implements MigrationInterface {
  name = 'AuthNotify1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION dropline_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('dropline_auth', json_build_object(
          CASE TG_TABLE_NAME WHEN 'api_keys' THEN 'keyId' ELSE 'accountId' END, OLD.id)::text);
        RETURN NULL;
      END $$`);
    // Re-runnable on a database that has the triggers already.
    await q.query('DROP TRIGGER IF EXISTS api_keys_auth_notify ON api_keys');
    await q.query('DROP TRIGGER IF EXISTS accounts_auth_notify_update ON accounts');
    await q.query('DROP TRIGGER IF EXISTS accounts_auth_notify_delete ON accounts');
    await q.query(`CREATE TRIGGER api_keys_auth_notify AFTER UPDATE OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION dropline_auth_notify()`);
    await q.query(`CREATE TRIGGER accounts_auth_notify_update AFTER UPDATE ON accounts
      FOR EACH ROW WHEN (OLD.plan IS DISTINCT FROM NEW.plan OR OLD.webhook_secret IS DISTINCT FROM NEW.webhook_secret)
      EXECUTE FUNCTION dropline_auth_notify()`);
    await q.query(`CREATE TRIGGER accounts_auth_notify_delete AFTER DELETE ON accounts
      FOR EACH ROW EXECUTE FUNCTION dropline_auth_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER accounts_auth_notify_delete ON accounts');
    await q.query('DROP TRIGGER accounts_auth_notify_update ON accounts');
    await q.query('DROP TRIGGER api_keys_auth_notify ON api_keys');
    await q.query('DROP FUNCTION dropline_auth_notify()');
  }
}
