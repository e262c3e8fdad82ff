import { dropDatabase } from './databases';
import { TEST_DATABASE_IS_OWN, TEST_DATABASE_URL } from './env';
import { checkRunLogs } from './log-lines';

/**
 * Checks every log line the run's apps, processes and CLI runs wrote (log-lines.ts: the run fails
 * on one that is not JSON of the logging shape), then drops the run's own database (named by its
 * run id); a database named by TEST_DATABASE_URL is kept.
 */
export default async function globalTeardown(): Promise<void> {
  try {
    if (TEST_DATABASE_IS_OWN) await dropDatabase(TEST_DATABASE_URL);
  } finally {
    const { files, lines } = checkRunLogs();
    if (files > 0) console.log(`log lines: ${lines} in ${files} files, all JSON of the logging shape`);
  }
}
