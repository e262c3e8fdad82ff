import { timeoutError, type MediaError } from './media.errors';

/** One wall-clock budget shared by every step of an operation (probe, transcode, verify). */
export class Deadline {
  private readonly end: number;

  constructor(readonly limitMs: number) {
    this.end = Date.now() + limitMs;
  }

  remainingMs(): number {
    return Math.max(0, this.end - Date.now());
  }

  /** Throws the `timeout` MediaError when the budget is spent; otherwise returns what is left. */
  require(): number {
    const left = this.remainingMs();
    if (left <= 0) throw this.error();
    return left;
  }

  error(): MediaError {
    return timeoutError(this.limitMs);
  }
}
