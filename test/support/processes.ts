import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { fetch, WebSocket } from 'undici';
import type { Account } from '../../src/accounts/account.entity';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { Clock } from '../../src/common/clock';
import { SCOPES } from '../../src/auth/scopes';
import { dataSourceOptions } from '../../src/database/data-source';
import { migrate } from '../../src/database/migrations/migrate';
import { dropDatabase as dropAnyDatabase } from './databases';
import { TEST_DATABASE_URL, TEST_RUN_ID } from './env';
import { testLogDir } from './log-lines';
import { freePort } from './test-app';

/**
 * Real processes for the fault tests (test/faults): the API (`src/main.ts`) and the worker
 * (`src/main-worker.ts`) spawned with their own environment, as an operator runs them, so a test can
 * SIGKILL or SIGTERM them. Every spawned process is remembered and killed when the test process
 * exits, even after a failure.
 */

const ROOT = resolve(__dirname, '../..');
// Everything a process prints, kept with the run's other log lines: the global teardown checks that
// every line is JSON of the logging shape (log-lines.ts), then removes them.
const LOG_DIR = join(testLogDir(), 'processes');
mkdirSync(LOG_DIR, { recursive: true });
const alive = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

export interface ServiceProcess {
  kind: 'api' | 'worker';
  pid: number;
  child: ChildProcess;
  /** Where stdout and stderr go (read it when a test fails: `tail(…)`). */
  logFile: string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True until the process exits. */
  isAlive(): boolean;
  /** Sends `signal`, waits up to `timeoutMs` for the exit, then SIGKILLs. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; forced: boolean }>;
  /** The last lines of the process's log. */
  tail(lines?: number): string;
}

export interface ApiProcess extends ServiceProcess {
  port: number;
  baseUrl: string;
}

/** The environment every fault test shares; each test adds its database, Redis and storage. */
export function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'FFMPEG_PATH', 'FFPROBE_PATH'];
  return Object.fromEntries(keep.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
}

export function spawnService(kind: 'api' | 'worker', env: Record<string, string>, nodeArgs: string[] = []): ServiceProcess {
  const logFile = join(LOG_DIR, `${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.log`);
  const fd = openSync(logFile, 'a');
  const entry = kind === 'api' ? 'src/main.ts' : 'src/main-worker.ts';
  const child = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', entry], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  alive.add(child);
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => {
      running = false;
      alive.delete(child);
      done({ code, signal });
    });
  });
  const tail = (lines = 40) =>
    existsSync(logFile)
      ? readFileSync(logFile, 'utf8')
          .split('\n')
          .slice(-lines - 1)
          .join('\n')
      : '';
  return {
    kind,
    pid: child.pid!,
    child,
    logFile,
    exited,
    isAlive: () => running,
    tail,
    async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000) {
      if (!running) return { ...(await exited), forced: false };
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first !== 'timeout') return { ...first, forced: false };
      child.kill('SIGKILL');
      return { ...(await exited), forced: true };
    },
  };
}

/** Starts `src/main.ts` on a free loopback port and waits until /healthz answers. */
export async function startApi(env: Record<string, string>, options: { timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<ApiProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc = spawnService(
    'api',
    {
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      ...env,
      PORT: String(port),
    },
    options.nodeArgs,
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.isAlive()) throw new Error(`API exited during startup:\n${proc.tail()}`);
    const res = await rawRequest(`${baseUrl}/healthz`, { timeoutMs: 1000 });
    if (res.status === 200) return { ...proc, port, baseUrl };
    await sleep(200);
  }
  await proc.stop('SIGKILL');
  throw new Error(`API did not answer /healthz within ${timeoutMs} ms:\n${proc.tail()}`);
}

/** Starts `src/main-worker.ts` and waits for its "Worker ready" line. */
export async function startWorker(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  // The ready line is logged at `info`.
  const proc = spawnService('worker', { ...env, LOG_LEVEL: 'info' });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.isAlive()) throw new Error(`worker exited during startup:\n${proc.tail()}`);
    if (existsSync(proc.logFile) && readFileSync(proc.logFile, 'utf8').includes('Worker ready')) return proc;
    await sleep(200);
  }
  await proc.stop('SIGKILL');
  throw new Error(`worker was not ready within ${timeoutMs} ms:\n${proc.tail()}`);
}

/** SIGKILLs every process this file spawned that is still running (afterAll, whatever happened). */
export async function killAll(): Promise<void> {
  const waits = [...alive].map(
    (child) =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
}

/** Resident set size of a process in KiB, from /proc/<pid>/status (VmRSS). */
export function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/**
 * A DevTools session with a process started with `--inspect=127.0.0.1:<port>`, used to force a
 * full garbage collection before reading RSS: the soak compares post-GC memory, not where the
 * heap happens to be in its collection cycle.
 */
export async function inspectorSession(port: number): Promise<{ collectGarbage(): Promise<void>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`inspector on ${port} refused the session`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, () => void>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data));
    if (msg.id) pending.get(msg.id)?.();
    pending.delete(msg.id);
  });
  return {
    collectGarbage: () =>
      new Promise<void>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
      }),
    close: () => ws.close(),
  };
}

export interface RawAnswer {
  /** null when no HTTP answer came: `error` holds the socket error code (ECONNREFUSED, ECONNRESET, …). */
  status: number | null;
  body: any;
  error?: string;
  startedAt: number;
  ms: number;
}

/**
 * One HTTP request on its own connection (no keep-alive), never throwing: a connection refused
 * or reset is an answer with `status: null`. Fault tests tell the two apart, which fetch hides.
 */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer | ((req: import('node:http').ClientRequest) => void); timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const startedAt = Date.now();
  return new Promise((done) => {
    let settled = false;
    const finish = (a: Omit<RawAnswer, 'startedAt' | 'ms'>) => {
      if (settled) return;
      settled = true;
      done({ ...a, startedAt, ms: Date.now() - startedAt });
    };
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: { connection: 'close', ...opts.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, body: undefined, error: err.code ?? err.message }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        finish({ status: res.statusCode ?? null, body });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, body: undefined, error: err.code ?? err.message }));
    if (opts.timeoutMs) req.setTimeout(opts.timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    if (typeof opts.body === 'function') opts.body(req);
    else req.end(opts.body);
  });
}

/** JSON request with a bearer token. */
export function apiCall(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    timeoutMs: 30_000,
  });
}

/** The URL of a fault test's own database on the machine's Postgres (the e2e one's server). */
/**
 * A fault test's database: the run's test database name plus the run id and the test's name
 * (`<db>_<run id>_<name>`), so a neighbour's run never drops or reuses it.
 */
export function faultDatabaseName(name: string): string {
  const base = decodeURIComponent(new URL(TEST_DATABASE_URL).pathname.slice(1));
  const full = `${base}_${TEST_RUN_ID}_${name}`;
  if (full.length > 63) throw new Error(`fault database name ${full} is longer than Postgres's 63 bytes`);
  return full;
}

export function faultDatabaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${faultDatabaseName(name)}`;
  return url.toString();
}

/** A fresh, migrated database for one fault test on the machine's Postgres (or a private one). */
export async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  await dropDatabase(url);
  await migrate(url);
  return { url, drop: () => dropDatabase(url) };
}

/** Only this run's own databases may go. */
async function dropDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const own = `${decodeURIComponent(new URL(TEST_DATABASE_URL).pathname.slice(1))}_${TEST_RUN_ID}_`;
  if (!name.startsWith(own)) throw new Error(`refusing to drop ${name}: this run owns only ${own}* databases`);
  await dropAnyDatabase(url);
}

export interface FaultTenant {
  account: Account;
  token: string;
  keyId: string;
}

/** An account and a key with every scope, written straight to the database the processes use. */
export async function createTenant(databaseUrl: string, options: { plan?: Account['plan']; credits?: number } = {}): Promise<FaultTenant> {
  const ds = new DataSource(dataSourceOptions(databaseUrl));
  await ds.initialize();
  try {
    const account = await new AccountsService(new AccountsRepository(ds), new Clock()).create(options.plan ?? 'bench', options.credits ?? 1000);
    const { key, token } = await new ApiKeysService(new ApiKeysRepository(ds), new Clock()).create({ accountId: account.id, scopes: [...SCOPES] });
    return { account, token, keyId: key.id };
  } finally {
    await ds.destroy();
  }
}

/** Job states of an account, as Postgres (the truth) has them. */
export async function jobStates(db: Client, accountId: string): Promise<Record<string, number>> {
  const { rows } = await db.query('SELECT state, count(*)::int AS n FROM jobs WHERE account_id = $1 GROUP BY state', [accountId]);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/**
 * The credits invariants of an account: the balance equals the grant plus the ledger, and per
 * job the ledger has exactly one debit and a refund exactly when the job did not complete.
 */
export async function ledgerProblems(db: Client, accountId: string, granted: number): Promise<string[]> {
  const problems: string[] = [];
  const [{ credit_balance: balance }] = (await db.query('SELECT credit_balance FROM accounts WHERE id = $1', [accountId])).rows;
  const [{ sum }] = (await db.query('SELECT COALESCE(SUM(delta), 0)::int AS sum FROM credit_ledger WHERE account_id = $1', [accountId])).rows;
  if (Number(balance) !== granted + sum) problems.push(`balance ${balance} != granted ${granted} + ledger ${sum}`);
  const { rows } = await db.query(
    `SELECT j.id, j.state, j.refunded,
            count(*) FILTER (WHERE l.reason = 'job_debit')::int AS debits,
            count(*) FILTER (WHERE l.reason = 'job_refund')::int AS refunds
       FROM jobs j LEFT JOIN credit_ledger l ON l.job_id = j.id
      WHERE j.account_id = $1 GROUP BY j.id`,
    [accountId],
  );
  for (const r of rows) {
    const shouldRefund = r.state === 'failed' || r.state === 'canceled';
    if (r.debits !== 1) problems.push(`${r.id} (${r.state}): ${r.debits} debits`);
    if (r.refunds !== (shouldRefund ? 1 : 0)) problems.push(`${r.id} (${r.state}): ${r.refunds} refunds`);
  }
  // Withdrawn jobs (enqueue failed) have no row left: their debit and refund must pair up.
  const orphans = await db.query(
    `SELECT job_id, SUM(delta)::int AS net FROM credit_ledger l
      WHERE account_id = $1 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = l.job_id)
      GROUP BY job_id HAVING SUM(delta) <> 0`,
    [accountId],
  );
  for (const r of orphans.rows) problems.push(`withdrawn ${r.job_id}: ledger nets ${r.net}`);
  return problems;
}

/** Polls until `probe` returns a truthy value; throws with `what` after timeoutMs. */
export async function waitUntil<T>(what: string, probe: () => Promise<T> | T, timeoutMs: number, everyMs = 200): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The q-quantile (0..1) of values, linearly interpolated. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}

export function median(values: number[]): number {
  return quantile(values, 0.5);
}
