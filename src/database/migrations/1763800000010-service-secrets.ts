import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Secrets the service makes for itself once and every process shares (the URL signing key). */
export class ServiceSecrets1763800000010 implements MigrationInterface {
  name = 'ServiceSecrets1763800000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE service_secrets (name text PRIMARY KEY, value text NOT NULL, created_at timestamptz(3) NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE service_secrets');
  }
}
