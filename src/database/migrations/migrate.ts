import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source';

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
