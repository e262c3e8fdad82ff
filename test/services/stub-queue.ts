/**
 * The BullMQ adapter's stand-in for service tests (the queue is not Postgres): it records each
 * add with its fair-share rank, can refuse or hold the next adds, and answers `state` from a map.
 */
export class StubQueue {
  /** A prefix of its own, so one test file's sweep sees only its own jobs. */
  constructor(readonly prefix = 'bull:services-test') {}

  added: { queue: string; jobId: string; fairShareRank: number }[] = [];
  removed: string[] = [];
  readonly states = new Map<string, string>();
  private failures = 0;
  private held?: { reached: () => void; wait: Promise<void>; fail: boolean };

  async add(queue: string, jobId: string, fairShareRank: number): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.reached();
      await held.wait;
      if (held.fail) throw new Error('queue refused (test)');
    }
    if (this.failures > 0) {
      this.failures--;
      throw new Error('queue refused (test)');
    }
    this.added.push({ queue, jobId, fairShareRank });
  }

  async remove(_queue: string, jobId: string): Promise<void> {
    this.removed.push(jobId);
  }

  async state(_queue: string, jobId: string): Promise<string> {
    return this.states.get(jobId) ?? (this.added.some((a) => a.jobId === jobId) ? 'waiting' : 'unknown');
  }

  failNext(count: number): void {
    this.failures = count;
  }

  /** The next add waits until `release()`; `reached` resolves once it has started. */
  holdNext(options: { fail?: boolean } = {}): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((r) => (reached = r));
    const wait = new Promise<void>((r) => (release = r));
    this.held = { reached, wait, fail: Boolean(options.fail) };
    return { reached: reachedPromise, release };
  }

  reset(): void {
    this.added = [];
    this.removed = [];
    this.states.clear();
    this.failures = 0;
    this.held = undefined;
  }
}
