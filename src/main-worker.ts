import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { WorkerRootModule } from './app.module';
import { reportFatal } from './process/process-lifecycle';
import { migrateWhenReachable, startProcess } from './process/process-start';
import { serveWorkerMetrics } from './metrics/worker-metrics-server';

/** `npm run start:worker`: queue consumers only. Run as many as the machine allows. */
async function main(): Promise<void> {
  const { config, lifecycle } = startProcess();
  await migrateWhenReachable(config, lifecycle);
  const app = await NestFactory.createApplicationContext(WorkerRootModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(PinoNestLogger));
  // Job and webhook metrics count in the process running the workers: this one serves them itself.
  const metrics = config.WORKER_METRICS_PORT ? await serveWorkerMetrics(config, config.WORKER_METRICS_PORT) : undefined;
  lifecycle.started(async () => {
    await metrics?.close();
    await app.close();
  });
  // The one line saying the queue consumers run (operators and the fault tests wait for it).
  new Logger('Worker').log('Worker ready: consuming the media and webhook queues');
}

main().catch(reportFatal);
