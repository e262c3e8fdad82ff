import { migrate } from '../../src/database/migrations/migrate';
import { TEST_DATABASE_URL } from './env';

export default async function globalSetup(): Promise<void> {
  await migrate(TEST_DATABASE_URL);
}
