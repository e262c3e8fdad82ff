import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { serveFiles } from './media-fixtures';
import { startPrivateRedis } from './private-redis';
import { faultDatabaseUrl, freshDatabase, killAll } from './processes';

/**
 * What every fault test stands on: a fresh database of its own, a private Redis it may stop,
 * a storage dir, input files on 127.0.0.1, and a Postgres client to check the ledger. `teardown`
 * kills the spawned processes and removes all of it; the machine's shared services are untouched.
 */
export interface FaultStack {
  database: Awaited<ReturnType<typeof freshDatabase>>;
  redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  files: Awaited<ReturnType<typeof serveFiles>>;
  storageDir: string;
  db: Client;
  /** The API/worker environment for this stack, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  teardown(): Promise<void>;
}

export async function createFaultStack(name: string, files: Record<string, Buffer>): Promise<FaultStack> {
  const database = await freshDatabase(faultDatabaseUrl(name));
  const redis = await startPrivateRedis();
  const served = await serveFiles(files);
  const storageDir = await mkdtemp(join(tmpdir(), `dropline-faults-${name}-`));
  const db = new Client({ connectionString: database.url });
  await db.connect();
  return {
    database,
    redis,
    files: served,
    storageDir,
    db,
    env: (extra = {}) => ({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      STORAGE_DIR: storageDir,
      SIGNING_SECRET: 'fault-tests-signing-secret-0123456789',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      ...extra,
    }),
    async teardown() {
      await killAll();
      await db.end().catch(() => undefined);
      await served.close();
      redis.stop();
      await database.drop().catch(() => undefined);
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}
