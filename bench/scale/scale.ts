/**
 * Scale test (issue 21 item 3): every sweeper/purge statement and every list query, at 10 k jobs and
 * at 5 M (bench/scale/fill.sql), each must stay under 2× its 10 k time.
 *
 *   npm run bench:scale -- [--jobs=5000000] [--small=10000] [--reuse] [--runs=7]
 *
 * Databases `dropline_bench_scale_<n>` on DATABASE_URL's server (default the local one), kept for
 * `--reuse`. The statements are the repositories' own SQL: each repository method is called once
 * against a recorder, then each recorded statement runs `runs` times inside BEGIN … ROLLBACK (so a
 * purge batch deletes the same 500 rows every time), warm, both plain (the client's round trip)
 * and under EXPLAIN ANALYZE (the server's execution time, compared: the round trip is noise of the
 * shared machine); medians are reported, with the EXPLAIN (ANALYZE, BUFFERS) plan at the large size. Writes bench/results/scale.md and scale.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { CreditLedgerRepository } from '../../src/credits/credit-ledger.repository';
import { migrate } from '../../src/database/migrations/migrate';
import { DropsRepository } from '../../src/drops/drops.repository';
import { IdempotencyRepository } from '../../src/jobs/idempotency.repository';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { queuePrefix } from '../../src/queue/queue.module';
import { OUTPUT_RETENTION_BY_PLAN } from '../../src/retention/retention-policy';
import { StoredKeyReferences } from '../../src/retention/stored-key-references';
import { PendingFileDeletionsRepository } from '../../src/storage/pending-file-deletions.repository';
import { StorageTombstonesRepository } from '../../src/storage/storage-tombstones.repository';
import { SubmissionsRepository } from '../../src/submissions/submissions.repository';
import { UploadsRepository } from '../../src/uploads/uploads.repository';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LARGE = Number(arg('jobs', '5000000'));
const SMALL = Number(arg('small', '10000'));
const RUNS = Number(arg('runs', '7'));
const REUSE = process.argv.includes('--reuse');
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function dbUrl(n: number): string {
  const url = new URL(SERVER);
  url.pathname = `/dropline_bench_scale_${n}`;
  return url.toString();
}

interface Statement {
  group: 'sweep' | 'list' | 'admission';
  name: string;
  sql: string;
  params: unknown[];
}

/** A Db/DataSource/Repository stand-in that records each statement and answers nothing. */
function recorder(into: Statement[], group: Statement['group'], name: string) {
  const db = {
    query: async (sql: string, params: unknown[] = []) => {
      into.push({ group, name, sql, params });
      return [];
    },
  };
  return Object.assign(db, { manager: db });
}

/** The statements of every sweeper/purge tick and list endpoint, with parameters that hit the big key, account and drop. */
async function statements(prefix: string): Promise<Statement[]> {
  const out: Statement[] = [];
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const day = 24 * 3600_000;
  const call = async (group: Statement['group'], name: string, fn: (db: any) => Promise<unknown>) => {
    await fn(recorder(out, group, name)).catch(() => undefined);
  };
  const jobs = (db: any) => new JobsRepository(db);
  const references = (db: any) => new StoredKeyReferences(db);
  // Sweepers and purges: one tick's statements (one batch each).
  await call('sweep', 'job sweeper: never enqueued', (db) => jobs(db).findNeverEnqueued(prefix, ago(10_000), 200));
  await call('sweep', 'job sweeper: accounts waiting for a slot', (db) => jobs(db).accountsWaiting(prefix, 200));
  await call('sweep', 'job sweeper: in flight, enqueued before', (db) => jobs(db).findInFlightEnqueuedBefore(prefix, ago(10_000), 500));
  await call('sweep', 'job sweeper: consequences pending', (db) => jobs(db).findConsequencesPending(prefix, ago(30_000), 200));
  await call('sweep', 'job sweeper: expired uploads (500)', (db) => new UploadsRepository(db).deleteExpired(now, 500));
  await call('sweep', 'webhook sweeper: overdue deliveries', (db) => new WebhookDeliveriesRepository(db).findOverdue(ago(5 * 60_000), 200));
  await call('sweep', 'purge: stamp new outputs (500)', (db) => jobs(db).stampOutputExpiry(prefix, OUTPUT_RETENTION_BY_PLAN, 500));
  await call('sweep', 'purge: expire due outputs (500)', (db) => jobs(db).expireOutputs(db, prefix, now, 500));
  await call('sweep', 'purge: job rows past 90 d (500)', (db) => jobs(db).deleteFinished(db, prefix, ago(90 * day), 500));
  await call('sweep', 'purge: deliveries past 30 d (500)', (db) => new WebhookDeliveriesRepository(db).deleteSettled(ago(30 * day), 500));
  await call('sweep', 'purge: expired idempotency records (500)', (db) => new IdempotencyRepository(db).deleteExpired(now, 500));
  await call('sweep', 'purge: tombstones past 7 d (500)', (db) => new StorageTombstonesRepository(db).deleteOlderThan(ago(7 * day), 500));
  await call('sweep', 'purge: pending file deletions (500)', (db) => new PendingFileDeletionsRepository(db).due(ago(60_000), 500));
  // Keys that exist at both sizes (half job outputs, half submissions), plus a few no row references.
  const keys = Array.from({ length: 500 }, (_, i) => (i % 50 === 0 ? `obj_orphan_${i}` : i % 2 ? `obj_out_${1 + i * 19}` : `obj_sub_${1 + i * 3}`));
  await call('sweep', 'reconciliation: which of 500 keys are referenced', (db) => references(db).referenced(keys));
  await call('sweep', 'reconciliation: next 500 referenced keys', (db) => references(db).referencedKeysAfter('obj_out_2', 500));
  // Admission (under the account lock) and the enqueue-failure withdraw.
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  await call('admission', 'spend caps: day and month spent by key_1', (db) => new CreditLedgerRepository(db).spentSince(db, 'key_1', today, month));
  await call('admission', 'in-flight jobs of acc_1', (db) => jobs(db).countInFlight(db, 'acc_1'));
  await call('admission', 'withdraw: idempotency records naming a job', (db) => new IdempotencyRepository(db).deleteForJob(db, 'job_0000000010'));
  // List endpoints, first page (limit 20 + 1).
  await call('list', 'GET /v1/jobs (key_1)', (db) => jobs(db).listForKey('key_1', 21, {}));
  await call('list', 'GET /v1/jobs?state=failed (key_1: none)', (db) => jobs(db).listForKey('key_1', 21, { state: 'failed' }));
  await call('list', 'GET /v1/jobs?state=completed (key_1)', (db) => jobs(db).listForKey('key_1', 21, { state: 'completed' }));
  await call('list', 'GET /v1/jobs?state=completed&tool=audio-compress (key_1)', (db) => jobs(db).listForKey('key_1', 21, { state: 'completed', tool: 'audio-compress' }));
  await call('list', 'GET /v1/jobs?tool=video-convert (key_1)', (db) => jobs(db).listForKey('key_1', 21, { tool: 'video-convert' }));
  const deliveries = (db: any) => new WebhookDeliveriesRepository(db);
  await call('list', 'GET /v1/webhook-deliveries (acc_1)', (db) => deliveries(db).listForAccount('acc_1', 21, undefined));
  await call('list', 'GET /v1/webhook-deliveries?status=pending (acc_1)', (db) => deliveries(db).listForAccount('acc_1', 21, undefined, 'pending'));
  await call('list', 'GET /v1/webhook-deliveries?status=failed (acc_1)', (db) => deliveries(db).listForAccount('acc_1', 21, undefined, 'failed'));
  const submissions = (db: any) => new SubmissionsRepository(db);
  await call('list', 'GET …/submissions (drp_1, a tenth of all)', (db) => submissions(db).listInDrop('drp_1', 21, undefined, {}));
  await call('list', 'GET …/submissions?isStarred=true (drp_1)', (db) => submissions(db).listInDrop('drp_1', 21, undefined, { isStarred: true }));
  await call('list', 'GET …/submissions?isArchived=true (drp_1)', (db) => submissions(db).listInDrop('drp_1', 21, undefined, { isArchived: true }));
  await call('list', 'GET …/submissions?isArchived=false (drp_1)', (db) => submissions(db).listInDrop('drp_1', 21, undefined, { isArchived: false }));
  await call('list', 'GET /v1/drops (acc_1)', (db) => new DropsRepository(db).listForAccount('acc_1', 21));
  await call('list', 'GET /v1/account/ledger (acc_1)', (db) => new CreditLedgerRepository(db).page('acc_1', 20));
  return out;
}

function psql(url: string, args: string[]): void {
  execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args, url], { stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Migrates a fresh database and fills it, secondary indexes dropped during the load and rebuilt after. */
async function fill(n: number): Promise<void> {
  const url = dbUrl(n);
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  if (REUSE) {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [`dropline_bench_scale_${n}`]);
    if (exists.rowCount) {
      const db = new Client({ connectionString: url });
      await db.connect();
      const filled = (await db.query("SELECT to_regclass('bench_filled') IS NOT NULL AS ok")).rows[0].ok;
      await db.end();
      if (filled) {
        await admin.end();
        console.log(`${n}: reusing ${url}`);
        return;
      }
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS dropline_bench_scale_${n} WITH (FORCE)`);
  await admin.end();
  await migrate(url);
  const db = new Client({ connectionString: url });
  await db.connect();
  const started = Date.now();
  const indexes = (await db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT IN (SELECT conname FROM pg_constraint)`)).rows as {
    indexname: string;
    indexdef: string;
  }[];
  for (const i of indexes) await db.query(`DROP INDEX ${i.indexname}`);
  psql(url, ['-v', `n=${n}`, '-v', `prefix=${queuePrefix(url)}`, '-f', join(__dirname, 'fill.sql')]);
  const loaded = Date.now();
  await db.query("SET maintenance_work_mem = '512MB'");
  for (const i of indexes) await db.query(i.indexdef);
  await db.query('VACUUM (ANALYZE)');
  await db.query('CREATE TABLE bench_filled (at timestamptz DEFAULT now())');
  await db.end();
  console.log(`${n}: filled in ${((loaded - started) / 1000).toFixed(0)} s, indexed + analyzed in ${((Date.now() - loaded) / 1000).toFixed(0)} s`);
}

interface Measured {
  /** Median of the server's Execution Time (EXPLAIN ANALYZE, TIMING OFF): what the ratio compares. */
  serverMs: number;
  /** Median round trip seen by the client (adds ~0.1–0.3 ms of protocol and scheduling on this machine). */
  clientMs: number;
  rows: number;
  plan?: string;
}

/** Below this, a server time is a handful of buffer lookups and the machine's noise: ratios compare at least this. */
const NOISE_FLOOR_MS = 0.1;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(n: number, stmts: Statement[], withPlans: boolean): Promise<Measured[]> {
  const db = new Client({ connectionString: dbUrl(n) });
  await db.connect();
  const out: Measured[] = [];
  try {
    for (const s of stmts) {
      const client: number[] = [];
      const server: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS + 1; i++) {
        await db.query('BEGIN');
        const t0 = process.hrtime.bigint();
        const result = await db.query(s.sql, s.params);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        await db.query('ROLLBACK');
        rows = result.rowCount ?? 0;
        await db.query('BEGIN');
        const explained = await db.query(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${s.sql}`, s.params);
        await db.query('ROLLBACK');
        if (i === 0) continue; // the first run warms the cache
        client.push(ms);
        server.push(explained.rows[0]['QUERY PLAN'][0]['Execution Time']);
      }
      let plan: string | undefined;
      if (withPlans) {
        await db.query('BEGIN');
        plan = (await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.sql}`, s.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
        await db.query('ROLLBACK');
      }
      out.push({ serverMs: median(server), clientMs: median(client), rows, plan });
    }
  } finally {
    await db.end();
  }
  return out;
}

/**
 * HOT updates of a job's life (start, 5 heartbeats, 5 progress updates, complete, refund) for
 * 2000 jobs inserted now, with the jobs table's fillfactor at 100 (before) and 85 (after).
 */
async function hotUpdates(n: number): Promise<{ fillfactor: number; updates: number; hot: number }[]> {
  const connect = async () => {
    const c = new Client({ connectionString: dbUrl(n) });
    await c.connect();
    return c;
  };
  // A backend's counters reach the shared statistics when it exits: each life runs on its own connection.
  const stats = async () => {
    const c = await connect();
    try {
      return (await c.query("SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'jobs'")).rows[0] as { upd: number; hot: number };
    } finally {
      await c.end();
    }
  };
  const results: { fillfactor: number; updates: number; hot: number }[] = [];
  for (const fillfactor of [100, 85]) {
    const db = await connect();
    const ids = Array.from({ length: 2000 }, (_, i) => `job_hot_${fillfactor}_${i}`);
    const before = await stats();
    try {
      await db.query(`ALTER TABLE jobs SET (fillfactor = ${fillfactor})`);
      await db.query(
        `INSERT INTO jobs (id, account_id, api_key_id, tool, queue, state, progress, input, options, cost, refunded, queue_prefix, enqueued_at)
         SELECT id, 'acc_2', 'key_2', 'image-resize', 'image-standard-queue', 'queued', 0, '{"url":"https://example.com/x.jpg"}', '{}', 1, false, 'hot', now() FROM unnest($1::text[]) id`,
        [ids],
      );
      const jobs = new JobsRepository(db as any);
      for (const id of ids) {
        await jobs.start(id, new Date(), 'run_1', 30_000);
        for (let k = 1; k <= 5; k++) {
          await jobs.heartbeat(id, 'run_1');
          await jobs.setProgress(id, k * 18);
        }
        await jobs.complete(id, `obj_hot_${id}`, { outputFormat: 'jpeg', outputSize: 1, outputFileName: 'x.jpg' }, new Date());
        await jobs.markRefunded(db, id);
      }
    } finally {
      await db.end();
    }
    await new Promise((r) => setTimeout(r, 1000));
    const after = await stats();
    results.push({ fillfactor, updates: after.upd - before.upd, hot: after.hot - before.hot });
    const cleanup = await connect();
    await cleanup.query('DELETE FROM jobs WHERE id = ANY($1::text[])', [ids]);
    await cleanup.query('ALTER TABLE jobs SET (fillfactor = 85)');
    await cleanup.end();
  }
  return results;
}

async function main(): Promise<void> {
  for (const n of [SMALL, LARGE]) await fill(n);
  const small = await measure(SMALL, await statements(queuePrefix(dbUrl(SMALL))), false);
  const stmts = await statements(queuePrefix(dbUrl(LARGE)));
  const large = await measure(LARGE, stmts, true);
  const hot = await hotUpdates(LARGE);

  const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));
  const lines = [
    `| Statement | ${SMALL.toLocaleString('en')} jobs: server (client) | ${LARGE.toLocaleString('en')} jobs: server (client) | Ratio (server, ≥ ${NOISE_FLOOR_MS} ms) | < 2× |`,
    '| --- | --- | --- | --- | --- |',
    ...stmts.map((s, i) => {
      const ratio = Math.max(large[i].serverMs, NOISE_FLOOR_MS) / Math.max(small[i].serverMs, NOISE_FLOOR_MS);
      const cell = (m: Measured) => `${fmt(m.serverMs)} ms (${fmt(m.clientMs)} ms), ${m.rows} rows`;
      return `| ${s.group}: ${s.name} | ${cell(small[i])} | ${cell(large[i])} | ${ratio.toFixed(2)}× | ${ratio < 2 ? 'yes' : '**no**'} |`;
    }),
    '',
    `HOT updates of 2000 jobs' lives (start, 5 heartbeats, 5 progress updates, complete, refund) at ${LARGE.toLocaleString('en')} jobs:`,
    '',
    '| jobs fillfactor | updates | HOT | HOT share |',
    '| --- | --- | --- | --- |',
    ...hot.map((h) => `| ${h.fillfactor} | ${h.updates} | ${h.hot} | ${((100 * h.hot) / Math.max(1, h.updates)).toFixed(0)} % |`),
  ];
  const plans = stmts.map((s, i) => `### ${s.group}: ${s.name}\n\n\`\`\`sql\n${s.sql.replace(/\s+/g, ' ').trim()}\n\`\`\`\n\n\`\`\`\n${large[i].plan}\n\`\`\``);
  mkdirSync(join(__dirname, '..', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', 'results', 'scale.md'), `${lines.join('\n')}\n\n## Plans at ${LARGE.toLocaleString('en')} jobs\n\n${plans.join('\n\n')}\n`);
  writeFileSync(
    join(__dirname, '..', 'results', 'scale.json'),
    JSON.stringify({ small: SMALL, large: LARGE, stmts: stmts.map((s, i) => ({ ...s, small: small[i], large: large[i] })), hot }, null, 2),
  );
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
