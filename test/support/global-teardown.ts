import { dropDatabase } from './databases';
import { TEST_DATABASE_IS_OWN, TEST_DATABASE_URL } from './env';

/** Drops the run's own database (named by its run id); a database named by TEST_DATABASE_URL is kept. */
export default async function globalTeardown(): Promise<void> {
  if (TEST_DATABASE_IS_OWN) await dropDatabase(TEST_DATABASE_URL);
}
