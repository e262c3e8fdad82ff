import { Logger } from '@nestjs/common';
import { type AppConfig, publicBaseUrl } from '../config/config';
import type { MigrationReport } from '../database/migrations/migrate';

/**
 * What `npm start` did and where to go next, in a few lines: the database (created? migrations
 * applied), the worker, then — once /readyz answers 200, not before — the address, the docs and
 * the admin CLI's first command. While a dependency is down it says what /readyz reports and waits.
 */
export async function announceStart(config: AppConfig, migrated: MigrationReport): Promise<void> {
  const logger = new Logger('Main');
  const database = decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1));
  logger.log(
    migrated,
    `Database ${database}: ${migrated.databaseCreated ? 'created, ' : ''}${migrated.migrationsApplied === 0 ? 'migrations up to date' : `${migrated.migrationsApplied} migration${migrated.migrationsApplied === 1 ? '' : 's'} applied`}; ${
      config.WORKER_IN_PROCESS === 'true' ? 'worker running in this process' : 'no worker in this process (WORKER_IN_PROCESS=false): run npm run start:worker'
    }`,
  );
  // Asked over loopback unless the API listens on one address only.
  const host = ['0.0.0.0', '::'].includes(config.HOST) ? '127.0.0.1' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const readyz = `http://${host}:${config.PORT}/readyz`;
  let waitingSaid = false;
  for (;;) {
    const answer: { ok: boolean; checks: Record<string, string> } = await fetch(readyz).then(
      async (res) => ({ ok: res.ok, checks: ((await res.json()) as { checks?: Record<string, string> }).checks ?? {} }),
      () => ({ ok: false, checks: {} }),
    );
    if (answer.ok) break;
    if (!waitingSaid) {
      const down = Object.entries(answer.checks).filter(([name, state]) => ['postgres', 'redis'].includes(name) && state !== 'ok');
      logger.warn(`Not ready: ${down.map(([name, state]) => `${name} ${state}`).join(', ') || 'readiness unknown'}; /readyz answers 503 until it is back`);
      waitingSaid = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000).unref());
  }
  const base = publicBaseUrl(config);
  logger.log(`Dropline is ready at ${base}: API docs at ${base}/docs; first, an account and a key: npm run -s admin -- account:create --plan pro --credits 100`);
}
