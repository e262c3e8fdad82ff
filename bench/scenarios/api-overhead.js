'use strict';
/**
 * 1. API overhead: authenticated GET /v1/drops/{slug} (API-key lookup, rate limit in Redis,
 * contract validation, scope, the drop query) vs a bare Fastify route running the same query.
 */
const path = require('node:path');
const { assertClean, cannon, cannonRounds, freePort, log, startProcess, fmt } = require('../lib');

const CONNECTIONS = 50;
const ROUNDS = 2; // 2 × 5 s per side, alternated: ~10 s each

module.exports = async function apiOverhead(ctx) {
  const slug = `bench-get-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'API overhead', slug });

  const port = await freePort();
  const ref = await startProcess('ref-fastify-pg', process.execPath, [path.join(__dirname, '..', 'ref', 'fastify-pg.js')], {
    env: { PORT: String(port), DATABASE_URL: ctx.databaseUrl },
    readyUrl: `http://127.0.0.1:${port}/healthz`,
  });
  try {
    const targets = {
      ref: { url: `http://127.0.0.1:${port}/drops/${slug}`, pid: ref.pid },
      svc: { url: `${ctx.baseUrl}/v1/drops/${slug}`, headers: { authorization: `Bearer ${ctx.token}` }, pid: ctx.app.pid },
    };
    const duration = ctx.seconds(5);
    log(`api-overhead: 2 s warm-up each, then ${ROUNDS} × ${duration} s each, alternated, ${CONNECTIONS} connections`);
    for (const { pid, ...t } of Object.values(targets)) await cannon({ ...t, connections: CONNECTIONS, duration: ctx.seconds(2) });
    const r = await cannonRounds(targets, { rounds: ROUNDS, duration, connections: CONNECTIONS });
    assertClean('api-overhead reference', r.ref);
    assertClean('api-overhead service', r.svc);
    const ratio = r.svc.rps / r.ref.rps;
    return {
      name: 'API overhead: `GET /v1/drops/{slug}` (50 conn.)',
      service: `${fmt.n(r.svc.rps)} req/s · p50 ${fmt.ms(r.svc.p50)} · p99 ${fmt.ms(r.svc.p99)} · ${fmt.n(r.svc.cpuMsPerRequest, 2)} CPU-ms/req`,
      reference: `${fmt.n(r.ref.rps)} req/s · p50 ${fmt.ms(r.ref.p50)} · p99 ${fmt.ms(r.ref.p99)} · ${fmt.n(r.ref.cpuMsPerRequest, 2)} CPU-ms/req (bare Fastify + pg)`,
      ratio: `${fmt.pct(ratio)} of req/s`,
      target: '≥ 60 %',
      met: ratio >= 0.6,
      raw: r,
    };
  } finally {
    await ref.stop();
  }
};
