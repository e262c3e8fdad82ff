import 'reflect-metadata';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { Client } from 'pg';
import { Account } from '../accounts/account.entity';
import { ApiKey } from '../auth/api-key.entity';
import { Drop } from '../drops/drop.entity';
import { Init1763700000000 } from './migrations/1763700000000-init';
import { Submissions1763700000001 } from './migrations/1763700000001-submissions';
import { Submission } from '../submissions/submission.entity';
import { WebhookDeliveries1763700000002 } from './migrations/1763700000002-webhook-deliveries';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { Jobs1763700000003 } from './migrations/1763700000003-jobs';
import { Idempotency1763700000004 } from './migrations/1763700000004-idempotency';
import { Job } from '../jobs/job.entity';
import { Upload } from '../uploads/upload.entity';

/** Every entity and migration; the app, the CLI and the tests share this list. */
export const ENTITIES = [Account, ApiKey, Drop, Submission, WebhookDelivery, Job, Upload];
export const MIGRATIONS = [Init1763700000000, Submissions1763700000001, WebhookDeliveries1763700000002, Jobs1763700000003, Idempotency1763700000004];

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    extra: { max: 20 },
  };
}

/** Creates the database named in the URL when it does not exist (npm start on a fresh machine). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (err: any) {
        if (err.code !== '42P04') throw err; // created by a concurrent starter
      }
    }
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and applies pending migrations, serialized by an advisory lock. */
export async function migrate(url: string): Promise<void> {
  await ensureDatabase(url);
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    await ds.query('SELECT pg_advisory_lock(7420001)');
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.query('SELECT pg_advisory_unlock(7420001)').catch(() => undefined);
    await ds.destroy();
  }
}
