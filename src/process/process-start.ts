import { Logger } from '@nestjs/common';
import { type AppConfig, loadConfig } from '../config/config';
import { readEnvFile } from '../config/env-file';
import { migrate, type MigrationReport } from '../database/migrations/migrate';
import { logFatalErrors } from '../logging/fatal-errors';
import { logProcessWarnings } from '../logging/process-warnings';
import { createRootLogger, nestLoggerOver } from '../logging/root-logger';
import { OutageLog } from './outage-log';
import { ProcessLifecycle, reportFatal } from './process-lifecycle';

/**
 * The first steps of main.ts and main-worker.ts: the config (a bad setting ends the process with one
 * fatal line), JSON log lines from the first one on (an outage at start included), and the
 * lifecycle that answers SIGTERM/SIGINT from then on.
 */
export function startProcess(): { config: AppConfig; lifecycle: ProcessLifecycle } {
  let config: AppConfig;
  try {
    readEnvFile();
    config = loadConfig();
  } catch (err) {
    reportFatal(err);
  }
  const root = createRootLogger(config);
  logProcessWarnings(root);
  logFatalErrors(root);
  Logger.overrideLogger(nestLoggerOver(root));
  return { config, lifecycle: new ProcessLifecycle(config.SHUTDOWN_TIMEOUT_S) };
}

/** Applies the migrations, waiting for Postgres while it is away (saying so once, with DATABASE_URL's address, not a stack). */
export function migrateWhenReachable(config: AppConfig, lifecycle: ProcessLifecycle): Promise<MigrationReport> {
  return lifecycle.untilReachable(OutageLog.of('Postgres', 'DATABASE_URL', config.DATABASE_URL), () => migrate(config.DATABASE_URL));
}
