import { stoppedError, timeoutError, type MediaError } from './media.errors';
import { currentStopSignal } from './stop-signal';

/**
 * One wall-clock budget shared by every step of an operation (probe, transcode, verify), and the
 * run's stop signal (stop-signal.ts) when the operation runs under one: either ends the operation.
 */
export class Deadline {
  private readonly end: number;
  private readonly signal = currentStopSignal();

  constructor(readonly limitMs: number) {
    this.end = Date.now() + limitMs;
  }

  remainingMs(): number {
    return Math.max(0, this.end - Date.now());
  }

  /** The run was stopped (its job canceled): the operation ends with `stoppedError`, not a timeout. */
  get stopped(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** Throws when the budget is spent or the run stopped; otherwise returns what is left. */
  require(): number {
    const left = this.remainingMs();
    if (left <= 0 || this.stopped) throw this.error();
    return left;
  }

  /** Calls `expire` once when the budget is spent or the run stops; the returned function cancels that. */
  watch(expire: () => void): () => void {
    let done = false;
    const fire = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', fire);
      expire();
    };
    const timer = setTimeout(fire, this.remainingMs());
    this.signal?.addEventListener('abort', fire, { once: true });
    if (this.stopped) queueMicrotask(fire);
    return () => {
      done = true;
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', fire);
    };
  }

  error(): MediaError {
    return this.stopped ? stoppedError() : timeoutError(this.limitMs);
  }
}
