#!/usr/bin/env node
// Runs Dredd against a freshly started server: a throwaway database, the accounts and keys of
// make-keys.ts, and hooks (hooks*.js) that inject the key and the fixtures each operation needs,
// provoke each error response (provoke.js) and check every body against the contract with Ajv.
// Prints one summary line and writes tmp/dredd-results.json (read by .ci/run).
// Everything it creates is named by the run id (test/support/run-id.js): database, Redis prefix
// (derived from the database name), storage dir; the port is a free one unless DREDD_PORT says.
const { spawn, execFileSync } = require('node:child_process');
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');
const Redis = require('ioredis');
const { Client } = require('pg');
const { testRunId } = require('../support/run-id');

const root = join(__dirname, '..', '..');
const runId = testRunId();
const adminUrl = process.env.DREDD_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = process.env.DREDD_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/dropline_dredd_${runId}`;
const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// The app's default prefix for this database (src/queue/queue.module.ts): queues and rate limits.
const redisPrefix = `bull:${databaseName}`;
const storageDir = join(root, 'tmp', `dredd-files-${runId}`);

const xunitFile = join(root, 'tmp', 'dredd-results.xml');
const summaryFile = join(root, 'tmp', 'dredd-results.json');
const MIN_RUN = 100;
const MAX_SKIPPED = 30;

/** Dredd's counts from its xunit report, written to tmp/dredd-results.json for CI's summary line. */
function summarize() {
  let attrs = {};
  try {
    const tag = /<testsuite\b[^>]*>/.exec(readFileSync(xunitFile, 'utf8'))?.[0] ?? '';
    attrs = Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], Number(m[2])]));
  } catch {}
  const total = attrs.tests ?? 0;
  const failed = (attrs.failures ?? 0) + (attrs.errors ?? 0);
  const skipped = attrs.skip ?? 0;
  const summary = { total, passed: total - failed - skipped, failed, skipped };
  writeFileSync(summaryFile, `${JSON.stringify(summary)}\n`);
  return summary;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function dropDatabase() {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${databaseName.replace(/"/g, '""')}" WITH (FORCE)`);
  await client.end();
}

/** Removes the run's queues and rate-limit counters from the shared Redis. */
async function deleteRedisKeys() {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    for await (const keys of redis.scanStream({ match: `${redisPrefix}:*`, count: 500 })) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

async function waitForHealth(server, baseUrl) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy in 60 s');
}

async function main() {
  const port = Number(process.env.DREDD_PORT || (await freePort()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await dropDatabase();
  await deleteRedisKeys();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: 'warn',
    REDIS_URL: redisUrl,
    STORAGE_DIR: storageDir,
    ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    SIGNING_SECRET: 'dredd-signing-secret-0123456789abcdef',
    // The hooks provoke the public 429 from a made-up client address (X-Forwarded-For): no traffic
    // goes there, and the per-IP budget of 127.0.0.1 stays for the other public transactions.
    TRUST_PROXY: '127.0.0.1',
    // 127.0.0.1's own public requests (fixtures and transactions) must never meet the per-IP limit
    // (a 429 there failed runs); provoke.js's exhaustAddress bursts past it for made-up addresses.
    PUBLIC_RATE_LIMIT: '200',
    // Every operation's 401 example is a failed authentication from 127.0.0.1: the budget of
    // failures per address (test/e2e/auth/auth-failures) must not turn the later ones into 429s.
    AUTH_FAILURES_PER_IP: '10000',
  };
  const server = spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitForHealth(server, baseUrl);
    const keys = execFileSync(process.execPath, ['-r', '@swc-node/register', 'test/dredd/make-keys.ts'], { cwd: root, env, encoding: 'utf8' });
    mkdirSync(join(root, 'tmp'), { recursive: true });
    rmSync(xunitFile, { force: true });
    const code = await new Promise((resolve) => {
      const dredd = spawn(
        join(root, 'node_modules', '.bin', 'dredd'),
        ['openapi.yaml', baseUrl, '--hookfiles', 'test/dredd/hooks*.js', '--loglevel', 'warning', '--reporter', 'cli', '--reporter', 'xunit', '--output', xunitFile],
        { cwd: root, env: { ...env, DREDD_TOKEN: JSON.parse(keys).main, DREDD_KEYS: keys, DREDD_BASE_URL: baseUrl, DREDD_DATABASE_URL: databaseUrl }, stdio: 'inherit' },
      );
      dredd.on('exit', (c) => resolve(c ?? 1));
    });
    const summary = summarize();
    console.log(`dredd: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped of ${summary.total} transactions`);
    // Too few transactions run, or too many skipped, is a failure too: the contract check must bite.
    const enough = summary.total - summary.skipped >= MIN_RUN && summary.skipped <= MAX_SKIPPED;
    if (!enough) console.error(`dredd: expected at least ${MIN_RUN} transactions run and at most ${MAX_SKIPPED} skipped`);
    process.exitCode = code || (enough ? 0 : 1);
  } finally {
    await new Promise((resolve) => {
      server.once('exit', resolve);
      if (server.exitCode !== null || !server.kill('SIGTERM')) resolve();
    });
    await dropDatabase().catch((err) => console.error(`could not drop ${databaseName}: ${err.message}`));
    await deleteRedisKeys().catch((err) => console.error(`could not remove ${redisPrefix}:* from Redis: ${err.message}`));
    rmSync(storageDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
