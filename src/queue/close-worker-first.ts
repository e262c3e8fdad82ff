import type { WorkerHost } from '@nestjs/bullmq';

/**
 * Shutdown, first step for every queue consumer: take no new job and let the running ones finish
 * while the fetch client, Postgres and Redis they need are still open. Left to @nestjs/bullmq,
 * the workers closed in onApplicationShutdown, after the fetch client (onModuleDestroy): jobs
 * picked up in between failed their input fetch and burned an attempt (fault test graceful-shutdown).
 */
export async function closeWorkerFirst(host: WorkerHost): Promise<void> {
  let worker: WorkerHost['worker'] | undefined;
  try {
    worker = host.worker;
  } catch {
    return; // never started (the app failed during init)
  }
  await worker.close();
}
