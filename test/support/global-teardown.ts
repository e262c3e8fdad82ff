import { Client } from 'pg';
import { TEST_DATABASE_IS_OWN, TEST_DATABASE_URL } from './env';
import { checkRunLogs } from './log-lines';

/**
 * Checks every log line the run's apps, processes and CLI runs wrote (log-lines.ts: the run fails
 * on one that is not JSON of the logging shape), then drops the run's own database (named by its
 * run id); a database named by TEST_DATABASE_URL is kept.
 */
export default async function globalTeardown(): Promise<void> {
  try {
    await dropOwnDatabase();
  } finally {
    const { files, lines } = checkRunLogs();
    if (files > 0) console.log(`log lines: ${lines} in ${files} files, all JSON of the logging shape`);
  }
}

async function dropOwnDatabase(): Promise<void> {
  if (!TEST_DATABASE_IS_OWN) return;
  const admin = new URL(TEST_DATABASE_URL);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
