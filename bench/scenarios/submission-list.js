'use strict';
/**
 * 4. Submission list: GET /v1/drops/{slug}/submissions (first page, 100 rows) on a drop with
 * 100 000 submissions vs one with 100. Rows are inserted directly with SQL; the counters set.
 */
const { Client } = require('pg');
const { assertClean, cannon, cannonRounds, log, fmt } = require('../lib');

const CONNECTIONS = 10;
const ROUNDS = 2; // 2 × 3 s per drop, alternated

/** `count` rows, one second apart, ids `sub_<tag><n>`. */
async function seed(client, slug, count, tag) {
  await client.query(
    `INSERT INTO submissions (id, drop_id, sender_name, file_name, file_size, file_mime, file_kind, storage_key, created_at)
     SELECT 'sub_' || $2 || lpad(g::text, 7, '0'), d.id, 'Bench sender ' || g, 'photo-' || g || '.jpg', 100000 + g,
            'image/jpeg', 'image', 'obj_' || $2 || g, now() - g * interval '1 second'
     FROM drops d, generate_series(1, $3::int) g WHERE d.slug = $1`,
    [slug, tag, count],
  );
  await client.query(
    `UPDATE drops d SET submission_count = s.n, total_bytes = s.bytes
     FROM (SELECT count(*) AS n, coalesce(sum(file_size), 0) AS bytes FROM submissions WHERE drop_id = (SELECT id FROM drops WHERE slug = $1)) s
     WHERE d.slug = $1`,
    [slug],
  );
}

module.exports = async function submissionList(ctx) {
  const stamp = Date.now().toString(36);
  const drops = {
    big: { slug: `bench-list-big-${stamp}`, count: 100_000, tag: `b${stamp}` },
    small: { slug: `bench-list-small-${stamp}`, count: 100, tag: `s${stamp}` },
  };
  const client = new Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    for (const d of Object.values(drops)) {
      await ctx.api('POST', '/v1/drops', { name: `List bench ${d.count}`, slug: d.slug });
      const started = Date.now();
      await seed(client, d.slug, d.count, d.tag);
      log(`submission-list: ${d.count} rows into ${d.slug} in ${Date.now() - started} ms`);
    }
    await client.query('ANALYZE submissions');
  } finally {
    await client.end();
  }

  const target = (d) => ({ url: `${ctx.baseUrl}/v1/drops/${d.slug}/submissions`, headers: { authorization: `Bearer ${ctx.token}` } });
  const duration = ctx.seconds(3);
  log(`submission-list: 1 s warm-up each, then ${ROUNDS} × ${duration} s each, alternated, ${CONNECTIONS} connections`);
  for (const d of Object.values(drops)) await cannon({ ...target(d), connections: CONNECTIONS, duration: ctx.seconds(1) });
  const { small, big } = await cannonRounds({ small: target(drops.small), big: target(drops.big) }, { rounds: ROUNDS, duration, connections: CONNECTIONS });
  assertClean('submission-list 100', small);
  assertClean('submission-list 100 000', big);
  const ratio = big.p50 / small.p50;
  return {
    name: 'Submission list: 100 000 vs 100 submissions (10 conn.)',
    service: `100 000: p50 ${fmt.ms(big.p50)} · p99 ${fmt.ms(big.p99)} · ${fmt.n(big.rps)} req/s`,
    reference: `100: p50 ${fmt.ms(small.p50)} · p99 ${fmt.ms(small.p99)} · ${fmt.n(small.rps)} req/s`,
    ratio: `${fmt.n(ratio, 2)}× the p50 time`,
    target: '< 2×',
    met: ratio < 2,
    raw: { big, small },
  };
};
