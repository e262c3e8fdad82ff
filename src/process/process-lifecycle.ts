import { Logger } from '@nestjs/common';
import { createRootLogger, loadLogSettings } from '../logging/root-logger';
import { isUnreachable, OutageLog } from './outage-log';

/**
 * main.ts and main-worker.ts: how a process starts while its dependencies may be away, and how it
 * stops on SIGTERM/SIGINT in every state — waiting for Postgres, running, or stuck closing
 * clients of a Redis that is gone — within SHUTDOWN_TIMEOUT_S.
 */
export class ProcessLifecycle {
  private readonly logger = new Logger('Process');
  private stopping = false;
  private closeApp?: () => Promise<void>;
  private readonly stopWaiting = new AbortController();

  private readonly onSignal = (signal: NodeJS.Signals) => void this.stop(signal);

  constructor(private readonly shutdownTimeoutS: number) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, this.onSignal);
  }

  /** Leaves signals to someone else (the cluster supervisor). */
  release(): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.off(signal, this.onSignal);
  }

  /** What closes the app once it exists (before that, a signal simply ends the process). */
  started(close: () => Promise<void>): void {
    this.closeApp = close;
    if (this.stopping) void this.stop('SIGTERM');
  }

  /** Runs `attempt` until the dependency answers: one clear line per outage, retries every second. */
  async untilReachable<T>(log: OutageLog, attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        const value = await attempt();
        log.recovered();
        return value;
      } catch (err) {
        if (!isUnreachable(err)) throw err;
        log.failed(err);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.stopWaiting.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      if (this.stopping) {
        // A signal while waiting: nothing is open yet, nothing to drain.
        process.exit(0);
      }
    }
  }

  private async stop(signal: string): Promise<void> {
    if (this.stopping && !this.closeApp) return;
    const first = !this.stopping;
    this.stopping = true;
    if (first) {
      this.logger.log(`${signal} received: stopping (at most ${this.shutdownTimeoutS} s)`);
      setTimeout(() => {
        this.logger.warn(`Still stopping after ${this.shutdownTimeoutS} s (SHUTDOWN_TIMEOUT_S): exiting now`);
        process.exit(1);
      }, this.shutdownTimeoutS * 1000).unref();
    }
    if (!this.closeApp) {
      this.stopWaiting.abort();
      process.exit(0);
    }
    const close = this.closeApp;
    this.closeApp = undefined;
    try {
      await close();
      process.exit(0);
    } catch (err) {
      this.logger.error(`Stopping failed: ${(err as Error).message}`);
      process.exit(1);
    }
  }
}

/** A start-up failure as one JSON line: a bad setting names itself, an outage its variable, no stack. */
export function reportFatal(err: unknown): never {
  const message = (err as Error)?.message ?? String(err);
  // The config may be what failed: the log settings come straight from the environment.
  createRootLogger(loadLogSettings(), 2).fatal({ context: 'Process' }, message);
  process.exit(1);
}
