'use strict';
/**
 * `npm run bench`: starts Dropline (own database, private Redis, temp storage), runs each benchmark
 * beside its reference, prints a markdown table and writes it to bench/results/latest.md.
 *
 *   npm run bench                        all four, full size (~1.5 min)
 *   npm run bench -- --quick             short runs, small upload (smoke test)
 *   npm run bench -- --only=api,list     a subset: api, jobs, uploads, list, cluster, tus, zip, wait, waiters, pipeline, thumbnail, storyboard, docs, tools, passwords
 *   npm run bench -- --profile           the service runs with --cpu-prof (bench/results/profiles/)
 *   npm run bench -- --save              also refresh the table in bench/RESULTS.md
 *
 * The service runs as `npm start` runs it: `node dist/src/main.js`, built first if stale
 * (scripts/build-if-stale.mjs). BENCH_SERVICE_FROM=src runs `src/main.ts` through @swc-node/register
 * instead (no build; its runtime transpiler and source-map support stay in the process).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { RESULTS_DIR, apiClient, freePort, killAllNow, log, run, startProcess, stopAll } = require('./lib');
const { machineFacts, markdownTable, saveResults } = require('./report');

const SCENARIOS = {
  api: require('./scenarios/api-overhead'),
  jobs: require('./scenarios/job-pipeline'),
  uploads: require('./scenarios/uploads'),
  list: require('./scenarios/submission-list'),
  cluster: require('./scenarios/api-cluster'),
  tus: require('./scenarios/tus-upload'),
  zip: require('./scenarios/zip-download'),
  wait: require('./scenarios/job-waiting').latency,
  waiters: require('./scenarios/job-waiting').waiters,
  pipeline: require('./scenarios/job-waiting').pipeline,
  thumbnail: require('./scenarios/video-frames').thumbnail,
  storyboard: require('./scenarios/video-frames').storyboard,
  docs: require('./scenarios/documents'),
  tools: require('./scenarios/media-tools'),
  passwords: require('./scenarios/drop-passwords'),
};
// Per TEST_RUN_ID when set: engineers benching side by side on one Postgres must not drop each other's database.
const DATABASE = `dropline_bench${process.env.TEST_RUN_ID ? `_${process.env.TEST_RUN_ID.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}` : ''}`;
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DATABASE}`;
const SCOPES = 'drops:read,drops:write,image:write,video:write,audio:write,documents:write,uploads:write,webhooks:read,webhooks:write';
const TS = ['-r', '@swc-node/register'];
const FROM_SOURCE = process.env.BENCH_SERVICE_FROM === 'src';

/** What the signal handlers must clean up. */
const state = { tmpDir: null };
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const only = (args.find((a) => a.startsWith('--only=')) ?? '').slice('--only='.length).split(',').filter(Boolean);

async function recreateDatabase() {
  const admin = new Client({ connectionString: DATABASE_URL.replace(`/${DATABASE}`, '/postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function startRedis() {
  const port = await freePort();
  const ping = () =>
    run('redis-cli', ['-p', String(port), 'ping']).then(
      (out) => out.includes('PONG'),
      () => false,
    );
  await startProcess('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { ready: ping });
  return `redis://127.0.0.1:${port}`;
}

async function startService(tmpDir, redisUrl, extraEnv = {}, name = 'service') {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL,
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    STORAGE_DIR: path.join(tmpDir, 'files'),
    SIGNING_SECRET: randomBytes(24).toString('hex'),
    ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    // Throughput, not the public per-address limit: since tus PATCH counts against it (issue 21), one
    // fast sender's 8 MiB chunks pass 10 requests a second on loopback.
    PUBLIC_RATE_LIMIT: '1000',
    ...extraEnv,
  };
  const profile = flag('profile') ? ['--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS_DIR, 'profiles')}`] : [];
  const entry = FROM_SOURCE ? [...TS, 'src/main.ts'] : ['dist/src/main.js'];
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean); // e.g. --trace-gc (not allowed in NODE_OPTIONS)
  const app = await startProcess(name, process.execPath, [...profile, ...nodeFlags, ...entry], { env, readyUrl: `${baseUrl}/readyz` });
  const admin = async (...cli) => JSON.parse(await run(process.execPath, [...TS, 'src/cli/admin.ts', ...cli], { env }));
  const { account } = await admin('account:create', '--plan', 'bench', '--credits', '100000000');
  const { key } = await admin('key:create', '--account', account.id, '--scopes', SCOPES);
  return { app, baseUrl, token: key.token };
}

async function main() {
  const quick = flag('quick');
  const chosen = only.length ? only : Object.keys(SCENARIOS);
  const unknown = chosen.filter((k) => !SCENARIOS[k]);
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}: use ${Object.keys(SCENARIOS).join(', ')}`);

  const facts = machineFacts();
  const tmpDir = (state.tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropline-bench-')));
  const rows = [];
  const started = Date.now();
  try {
    log(`setup: database ${DATABASE}, private Redis, service (temp dir ${tmpDir})`);
    await recreateDatabase();
    if (!FROM_SOURCE) await run(process.execPath, ['scripts/build-if-stale.mjs']);
    const redisUrl = await startRedis();
    const { app, baseUrl, token } = await startService(tmpDir, redisUrl);
    const ctx = {
      app,
      baseUrl,
      token,
      quick,
      tmpDir,
      api: apiClient(baseUrl, token),
      databaseUrl: DATABASE_URL,
      fixturePort: await freePort(),
      seconds: (s) => (quick ? Math.max(1, Math.ceil(s / 5)) : s),
      /** Another instance of the service on the same database and Redis (the cluster row). */
      startService: (env, name) => startService(tmpDir, redisUrl, env, name),
    };
    for (const key of chosen) {
      log(`— ${key}`);
      try {
        // A scenario gives one row, or several (tools: one per tool).
        rows.push(...[await SCENARIOS[key](ctx)].flat());
      } catch (err) {
        log(`${key} failed: ${err.stack}`);
        rows.push({ name: key, service: 'n/a', reference: 'n/a', ratio: 'n/a', target: '', met: false, error: err.message });
      }
    }
  } finally {
    await stopAll();
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }

  const table = markdownTable(rows, facts, quick);
  process.stdout.write(`\n${table}\n`);
  await saveResults(table, rows, facts, { commitCopy: flag('save') });
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; table in bench/results/latest.md${flag('save') ? ' and bench/RESULTS.md' : ''}`);
  if (rows.some((r) => r.error)) process.exitCode = 1;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers`);
    stopAll().finally(() => {
      if (state.tmpDir) fs.rmSync(state.tmpDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}
process.on('exit', killAllNow);

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exitCode = 1;
});
