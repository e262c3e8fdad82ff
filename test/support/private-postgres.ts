import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './test-app';

/**
 * A throwaway Postgres cluster (initdb + pg_ctl) on its own loopback port, for tests that stop
 * Postgres. It runs as the `postgres` system user (Postgres refuses to run as root), with trust
 * auth, its data and socket in a temp dir. The machine's shared Postgres on 5432 is never touched.
 */
export interface PrivatePostgres {
  port: number;
  /** A database URL on this cluster (the database is created by the app's migrate()). */
  url(database: string): string;
  /** `pg_ctl stop -m fast`: running sessions are terminated, new connections refused. */
  stop(): void;
  start(): void;
  /** Stops it (immediate) and deletes the data directory. */
  destroy(): void;
}

const live = new Set<PrivatePostgres>();
process.on('exit', () => {
  for (const pg of live) pg.destroy();
});

function pgBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error('initdb not found under /usr/lib/postgresql/*/bin');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = pgBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'dropline-faults-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  // As root, run the Postgres binaries as the postgres user; otherwise as ourselves.
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, tool), asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { stdio: 'pipe', cwd: dir });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');
  const pg: PrivatePostgres = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', '-t', '60', 'start']);
    },
    stop: () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    destroy: () => {
      live.delete(pg);
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(pg);
  pg.start();
  return pg;
}
