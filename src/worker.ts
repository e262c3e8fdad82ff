import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { jsonLogger } from './app.factory';
import { WorkerRootModule } from './app.module';
import { loadConfig } from './config/config';
import { migrate } from './database/data-source';

/** `npm run start:worker`: queue consumers only. Run as many as the machine allows. */
async function main(): Promise<void> {
  const config = loadConfig();
  await migrate(config.DATABASE_URL);
  const app = await NestFactory.createApplicationContext(WorkerRootModule.forRoot(config), { logger: jsonLogger(config) });
  app.enableShutdownHooks();
  // The one line saying the queue consumers run (operators and the fault tests wait for it).
  new Logger('Worker').log('Worker ready: consuming the media and webhook queues');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
