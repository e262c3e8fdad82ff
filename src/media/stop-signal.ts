import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The signal that stops the media work of one job run (its job was canceled, or another run took
 * it over). Carried by the async context rather than through every tool's options: a Deadline
 * made inside `runStoppable` picks it up, and the process runners kill their process when it fires.
 */
const current = new AsyncLocalStorage<AbortSignal>();

export function runStoppable<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  return current.run(signal, run);
}

export function currentStopSignal(): AbortSignal | undefined {
  return current.getStore();
}
