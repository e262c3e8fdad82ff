import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export interface LogSettings {
  LOG_LEVEL: string;
  /** `json` (default): one JSON object per line; `pretty`: colored lines for humans (pino-pretty). */
  LOG_FORMAT?: string;
  /** When set, the lines are appended to this file (created with its directory) instead of stdout/stderr. */
  LOG_FILE?: string;
}

/**
 * The one pino logger of a process. Every line has the same top-level shape — `level` (a name),
 * `time` (ISO 8601), `msg`, then fields such as `context`, `reqId`, `jobId` — whether it comes from
 * Nest, an HTTP request or the admin CLI. `fd` 2 sends it to stderr (the CLI's stdout is its answer).
 */
export function createRootLogger(settings: LogSettings, fd: 1 | 2 = 1, stream?: NodeJS.WritableStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.LOG_LEVEL,
    base: undefined,
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method, level) {
        if (level === pino.levels.values.info && isNestBootChatter(args[0])) return this.debug(...args);
        return method.apply(this, args);
      },
    },
  };
  if (stream) return pino(options, stream);
  const dest = settings.LOG_FILE || fd;
  const destination =
    settings.LOG_FORMAT === 'pretty'
      ? pretty({ destination: dest, mkdir: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' })
      : pino.destination({ dest, mkdir: true, sync: true });
  return pino(options, destination);
}

/**
 * Nest's own start-up lines — every route mapped, every module initialised, "successfully started"
 * — go to debug: the first start reads as the few lines main.ts writes (where the service is, what
 * it did, whether it is ready), and "started" is not claimed while a dependency is down.
 */
const NEST_BOOT_CONTEXTS = new Set(['RoutesResolver', 'RouterExplorer', 'InstanceLoader', 'NestFactory', 'NestApplication']);
function isNestBootChatter(first: unknown): boolean {
  const context = (first as { context?: unknown } | null)?.context;
  return typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context);
}

/** For the lines written before (or without) the validated config: start-up failures, the CLI. */
export function loadLogSettings(env: NodeJS.ProcessEnv = process.env, defaultLevel = 'info'): LogSettings {
  return { LOG_LEVEL: env.LOG_LEVEL || defaultLevel, LOG_FORMAT: env.LOG_FORMAT, LOG_FILE: env.LOG_FILE || undefined };
}

/** Nest's `Logger` over a pino logger, for the lines written before a Nest app (and its nestjs-pino) exists. */
export function nestLoggerOver(root: Logger): LoggerService {
  const write =
    (level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: unknown, ...rest: unknown[]) => {
      const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
      if (message !== null && typeof message === 'object') root[level]({ context, ...message });
      else root[level]({ context }, String(message));
    };
  return { fatal: write('fatal'), error: write('error'), warn: write('warn'), log: write('info'), debug: write('debug'), verbose: write('trace') };
}
