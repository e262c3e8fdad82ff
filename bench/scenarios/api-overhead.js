'use strict';
/**
 * 1. API overhead: authenticated GET /v1/drops/{slug} (API-key lookup, rate limit in Redis,
 * contract validation, scope, the drop query) vs a bare Fastify route running the same query.
 */
const path = require('node:path');
const { cannon, freePort, log, startProcess, fmt } = require('../lib');

const CONNECTIONS = 50;

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
      ref: { url: `http://127.0.0.1:${port}/drops/${slug}` },
      svc: { url: `${ctx.baseUrl}/v1/drops/${slug}`, headers: { authorization: `Bearer ${ctx.token}` } },
    };
    const duration = ctx.seconds(10);
    log(`api-overhead: warm-up, then ${duration} s each at ${CONNECTIONS} connections`);
    for (const t of Object.values(targets)) await cannon({ ...t, connections: CONNECTIONS, duration: ctx.seconds(2) });
    const ref1 = await cannon({ ...targets.ref, connections: CONNECTIONS, duration });
    const svc = await cannon({ ...targets.svc, connections: CONNECTIONS, duration });
    for (const [name, r] of [['reference', ref1], ['service', svc]]) {
      if (r.non2xx || r.errors) throw new Error(`api-overhead ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    }
    const ratio = svc.rps / ref1.rps;
    return {
      name: 'API overhead: `GET /v1/drops/{slug}` (50 conn.)',
      service: `${fmt.n(svc.rps)} req/s · p50 ${fmt.ms(svc.p50)} · p99 ${fmt.ms(svc.p99)}`,
      reference: `${fmt.n(ref1.rps)} req/s · p50 ${fmt.ms(ref1.p50)} · p99 ${fmt.ms(ref1.p99)} (bare Fastify + pg)`,
      ratio: `${fmt.pct(ratio)} of req/s`,
      target: '≥ 60 %',
      met: ratio >= 0.6,
      raw: { service: svc, reference: ref1 },
    };
  } finally {
    await ref.stop();
  }
};
