import type { WorkerHost } from '@nestjs/bullmq';

/**
 * Shutdown, first step for every queue consumer: take no new job and let the running ones finish
 * while the fetch client, Postgres and Redis they need are still open. Left to @nestjs/bullmq,
 * the workers closed in onApplicationShutdown, after the fetch client (onModuleDestroy): jobs
 * picked up in between failed their input fetch and burned an attempt (fault test graceful-shutdown).
 *
 * With Redis away and no job running there is nothing to finish: a graceful close would wait for
 * a connection that may never come (the whole SHUTDOWN_TIMEOUT_S), so the worker is closed at once.
 */
export async function closeWorkerFirst(host: WorkerHost): Promise<void> {
  let worker: WorkerHost['worker'] | undefined;
  try {
    worker = host.worker;
  } catch {
    return; // never started (the app failed during init)
  }
  await worker.close(idleWithoutRedis(worker));
}

/**
 * BullMQ's own view (6.x internals, no public equivalent): the jobs its lock manager tracks (those
 * running now) and its ioredis client's state. Should a later BullMQ move them, this reads as "not
 * idle" and the close stays graceful (bounded by SHUTDOWN_TIMEOUT_S); e2e shutdown-dependency-down says so.
 */
type WorkerInternals = { lockManager?: { getActiveJobCount?(): number }; backend?: { connection?: { _client?: { status?: string } } } };

function idleWithoutRedis(worker: WorkerHost['worker']): boolean {
  const internals = worker as unknown as WorkerInternals;
  const running = internals.lockManager?.getActiveJobCount?.() ?? 1;
  const redis = internals.backend?.connection?._client?.status;
  return running === 0 && redis !== undefined && redis !== 'ready';
}
