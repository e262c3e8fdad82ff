import 'reflect-metadata';
import { createApp } from './app.factory';
import { loadConfig } from './config/config';
import { migrate } from './database/data-source';

/** `npm start`: create the database if missing, apply migrations, then listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  await migrate(config.DATABASE_URL);
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
