import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import cluster from 'node:cluster';
import { createApp } from './app.factory';
import type { AppConfig } from './config/config';
import { createRootLogger } from './logging/root-logger';
import { reportFatal } from './process/process-lifecycle';
import { migrateWhenReachable, startProcess } from './process/process-start';
import { announceStart } from './process/start-summary';

/** `npm start`: create the database if missing, apply migrations, then listen (WEB_CONCURRENCY processes). */
async function main(): Promise<void> {
  const { config, lifecycle } = startProcess();
  const migrated = cluster.isPrimary ? await migrateWhenReachable(config, lifecycle) : undefined;
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) {
    // The supervisor passes signals on to its API processes and waits for them (each bounded by its own lifecycle).
    lifecycle.release();
    return supervise(config);
  }
  const app = await createApp(config);
  lifecycle.started(() => app.close());
  await app.listen(config.PORT, config.HOST);
  new Logger('Main').log({ port: config.PORT, host: config.HOST, workerInProcess: config.WORKER_IN_PROCESS === 'true' }, `Dropline API listening on ${config.HOST}:${config.PORT}`);
  // A single process says what it did and, once ready, where to go (a cluster's API processes stay quiet).
  if (migrated) void announceStart(config, migrated);
}

/**
 * WEB_CONCURRENCY > 1: this process only forks N copies of itself that share the port (node:cluster
 * hands each new connection to one of them), replaces one that dies, and passes SIGTERM/SIGINT on,
 * exiting once they all have finished their graceful shutdown.
 */
function supervise(config: AppConfig): void {
  let stopping = false;
  const root = createRootLogger(config);
  const log = (message: string) => root.info({ context: 'Cluster' }, message);
  // Without SIGNING_SECRET every process reads the one kept in the database (download-url-signer.ts),
  // so links verify in any process and survive restarts: nothing to hand down here.
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log(`API process ${worker.process.pid} exited (${signal ?? code}); starting another in 1 s`);
    setTimeout(() => !stopping && cluster.fork(), 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch(reportFatal);
