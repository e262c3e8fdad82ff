import { Logger } from '@nestjs/common';

/** Errors that mean "the dependency is not there (yet)": worth a retry, never a stack trace. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'EPIPE']);
const QUIET_MS = 10_000;

export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; errors?: unknown[]; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && UNREACHABLE.has(e.code)) return true;
  // AggregateError (IPv4 and IPv6 both refused) carries the codes inside.
  if (Array.isArray(e?.errors) && e.errors.some(isUnreachable)) return true;
  return /^(connect|getaddrinfo) E[A-Z]+|Connection is closed|Connection terminated|timeout exceeded when trying to connect/.test(typeof e?.message === 'string' ? e.message : '');
}

/** host:port of a connection URL, credentials left out (they must never reach a log). */
export function addressOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * One dependency's outage as the log tells it: one line naming the variable and the address when
 * it goes, at most one more every 10 s while it stays away (every client and queue of the
 * process shares it), one when it is back. No stack frames: a refused connection is not a bug.
 */
export class OutageLog {
  private static readonly byVariable = new Map<string, OutageLog>();
  private readonly logger: Logger;
  private lastLoggedAt = 0;
  private down = false;

  static of(what: string, variable: string, url: string): OutageLog {
    let log = OutageLog.byVariable.get(variable);
    if (!log) OutageLog.byVariable.set(variable, (log = new OutageLog(what, variable, addressOf(url))));
    return log;
  }

  private constructor(
    private readonly what: string,
    private readonly variable: string,
    private readonly address: string,
  ) {
    this.logger = new Logger(what);
  }

  /** Reports an error of a client of this dependency; other errors than unreachability are logged as such. */
  failed(err: unknown, source = ''): void {
    const message = (err as Error)?.message ?? String(err);
    if (!isUnreachable(err)) {
      this.logger.error(`${this.what} error${source ? ` (${source})` : ''}: ${message}`);
      return;
    }
    const now = Date.now();
    if (now - this.lastLoggedAt >= QUIET_MS) {
      this.lastLoggedAt = now;
      this.logger.warn(`${this.what} unreachable at ${this.address} (${this.variable}): ${message}; retrying`);
    }
    this.down = true;
  }

  recovered(): void {
    if (this.down) this.logger.log(`${this.what} reachable again at ${this.address} (${this.variable})`);
    this.down = false;
    this.lastLoggedAt = 0;
  }
}
