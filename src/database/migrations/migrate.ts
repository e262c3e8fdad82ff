import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source';

/** Creates the database named in the URL when it does not exist (npm start on a fresh machine); true when it did. */
export async function ensureDatabase(url: string): Promise<boolean> {
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
        return true;
      } catch (err: any) {
        if (err.code !== '42P04') throw err; // created by a concurrent starter
      }
    }
    return false;
  } finally {
    await client.end();
  }
}

/** What a start did to the database (the first start says so). */
export interface MigrationReport {
  databaseCreated: boolean;
  migrationsApplied: number;
}

/** Creates the database if needed and applies pending migrations, serialized by an advisory lock. */
export async function migrate(url: string): Promise<MigrationReport> {
  const databaseCreated = await ensureDatabase(url);
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    await ds.query('SELECT pg_advisory_lock(7420001)');
    const applied = await ds.runMigrations({ transaction: 'each' });
    return { databaseCreated, migrationsApplied: applied.length };
  } finally {
    await ds.query('SELECT pg_advisory_unlock(7420001)').catch(() => undefined);
    await ds.destroy();
  }
}
