import { Injectable, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ListenClient } from '../database/listen-client';
import { isFinal, type JobState } from './lifecycle/job-states';

/** The channel a job's move into a final state notifies on, with its id (migration 1764200000900-job-ended-notify). */
export const JOB_ENDED_CHANNEL = 'dropline_job_ended';

/** Requests of this process waiting for a job to end (`Prefer: wait`); the disconnect test reads it. */
export const jobWaiters = new Gauge({
  name: 'dropline_job_waiters',
  help: 'Requests waiting for a job to reach a final state (Prefer: wait) in this process',
});

type Outcome = 'woken' | 'timeout' | 'aborted';

/** One waiting request: a wake that comes while it is not parked (it is reading the job) is kept for its next park. */
class Waiter {
  private woken = false;
  private release?: (outcome: Outcome) => void;

  wake(): void {
    if (this.release) this.release('woken');
    else this.woken = true;
  }

  /** Parks until woken, `ms` elapsed or `signal` aborted; the timer and the abort listener go with it. */
  park(ms: number, signal: AbortSignal): Promise<Outcome> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve('woken');
    }
    if (signal.aborted) return Promise.resolve('aborted');
    return new Promise<Outcome>((resolve) => {
      const onAbort = () => done('aborted');
      const timer = setTimeout(() => done('timeout'), ms);
      const done = (outcome: Outcome) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.release = undefined;
        resolve(outcome);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.release = done;
    });
  }
}

/**
 * Waiting for a job's end without polling (`Prefer: wait`). The job's final state
 * write NOTIFYs its id (a trigger, whichever process writes it: usually a worker), and this
 * process's listening connection (ListenClient) wakes the requests waiting on that id from an in-memory map. A
 * waiting request holds no database connection, only a timer and a map entry; it reads the job
 * when it starts, when woken and when its time is up.
 *
 * No end is missed: a request registers before its first read, so an end committed after that
 * read wakes it, and an end committed before it is what the read sees. When the listening
 * connection (re)connects — notifications of the gap are lost — every waiter reads again.
 */
@Injectable()
export class JobWaits implements OnModuleDestroy, OnApplicationShutdown {
  private readonly waiting = new Map<string, Set<Waiter>>();
  private unsubscribe?: () => void;
  private closing = false;

  constructor(private readonly listen: ListenClient) {}

  /**
   * Reads the job with `read` until it is final or `timeoutMs` has passed, and returns the last
   * reading (whatever `read` throws, e.g. not found, is thrown). Undefined when `signal` aborted
   * first (the client went away). While the process shuts down it does not wait.
   */
  async until<J extends { state: JobState }>(jobId: string, read: () => Promise<J>, timeoutMs: number, signal: AbortSignal): Promise<J | undefined> {
    // Subscribed with the first wait: a process that never waits (a worker) never listens.
    this.unsubscribe ??= this.listen.subscribe(JOB_ENDED_CHANNEL, {
      onNotification: (jobId) => this.waiting.get(jobId)?.forEach((w) => w.wake()),
      onListening: () => this.wakeAll(),
    });
    const deadline = Date.now() + timeoutMs;
    const waiter = new Waiter();
    this.add(jobId, waiter);
    try {
      for (;;) {
        const job = await read();
        const left = deadline - Date.now();
        if (isFinal(job.state) || left <= 0 || this.closing) return job;
        if ((await waiter.park(left, signal)) === 'aborted') return undefined;
      }
    } finally {
      this.remove(jobId, waiter);
    }
  }

  /** Shutdown: every waiting request answers now, with the job as it is (the HTTP server drains next). */
  onModuleDestroy(): void {
    this.closing = true;
    this.wakeAll();
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  private wakeAll(): void {
    for (const set of this.waiting.values()) set.forEach((w) => w.wake());
  }

  private add(jobId: string, waiter: Waiter): void {
    let set = this.waiting.get(jobId);
    if (!set) this.waiting.set(jobId, (set = new Set()));
    set.add(waiter);
    jobWaiters.inc();
  }

  private remove(jobId: string, waiter: Waiter): void {
    const set = this.waiting.get(jobId);
    if (!set?.delete(waiter)) return;
    if (set.size === 0) this.waiting.delete(jobId);
    jobWaiters.dec();
  }
}
