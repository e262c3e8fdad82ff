import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/** The job whose processing this async context belongs to (socket events keep the context their socket was opened in). */
const currentJob = new AsyncLocalStorage<string>();
/** Every job this process is running now: an error from a pooled socket may carry another job's context, or none. */
const running = new Set<string>();

/** Runs one job's processing with its id attached, for the fatal line below. */
export async function withRunningJob<T>(jobId: string, run: () => Promise<T>): Promise<T> {
  running.add(jobId);
  try {
    return await currentJob.run(jobId, run);
  } finally {
    running.delete(jobId);
  }
}

/**
 * An exception nobody could catch (thrown from an event handler, such as undici's socket handlers
 * in nodejs/undici#5360) or a rejection nobody handled ends the process, as Node would — but first
 * as one JSON line naming the job it came from and the jobs running, instead of a bare stack on
 * stderr. The process exits 1: its state is unknown; BullMQ gives its jobs to another worker.
 */
export function logFatalErrors(root: Logger): void {
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection') => (reason: unknown) => {
    const err = reason instanceof Error ? reason : new Error(String(reason));
    const jobId = currentJob.getStore();
    root.fatal({ context: 'Process', err, ...(jobId ? { jobId } : {}), runningJobs: [...running] }, `${kind}: ${err.message}; exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaughtException'));
  process.on('unhandledRejection', fatal('unhandledRejection'));
}
