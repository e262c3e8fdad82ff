'use strict';
/**
 * 5. API, 2 processes vs 1: the same authenticated GET /v1/drops/{slug} as row 1, against a
 * second instance started with WEB_CONCURRENCY=2 (node:cluster, one port) vs the one-process
 * service, alternated. No target: on a 2-core machine the load generator, Postgres and Redis
 * compete with the API processes for the same cores.
 */
const { assertClean, cannon, cannonRounds, log, fmt } = require('../lib');

const CONNECTIONS = 50;
const ROUNDS = 2;

module.exports = async function apiCluster(ctx) {
  const slug = `bench-cluster-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'API cluster', slug });
  const two = await ctx.startService({ WEB_CONCURRENCY: '2', WORKER_IN_PROCESS: 'false' }, 'service-x2');
  try {
    const headers = { authorization: `Bearer ${ctx.token}` };
    const targets = {
      one: { url: `${ctx.baseUrl}/v1/drops/${slug}`, headers, pid: ctx.app.pid },
      two: { url: `${two.baseUrl}/v1/drops/${slug}`, headers, pid: two.app.pid },
    };
    const duration = ctx.seconds(5);
    log(`api-cluster: 2 s warm-up each, then ${ROUNDS} × ${duration} s each, alternated, ${CONNECTIONS} connections`);
    for (const { pid, ...t } of Object.values(targets)) await cannon({ ...t, connections: CONNECTIONS, duration: ctx.seconds(2) });
    const r = await cannonRounds(targets, { rounds: ROUNDS, duration, connections: CONNECTIONS });
    assertClean('api-cluster 1 process', r.one);
    assertClean('api-cluster 2 processes', r.two);
    const ratio = r.two.rps / r.one.rps;
    return {
      name: 'API, 2 processes vs 1 (`WEB_CONCURRENCY=2`, same request as row 1)',
      service: `${fmt.n(r.two.rps)} req/s · p50 ${fmt.ms(r.two.p50)} · p99 ${fmt.ms(r.two.p99)} · ${fmt.n(r.two.cpuMsPerRequest, 2)} CPU-ms/req (all processes)`,
      reference: `${fmt.n(r.one.rps)} req/s · p50 ${fmt.ms(r.one.p50)} · p99 ${fmt.ms(r.one.p99)} · ${fmt.n(r.one.cpuMsPerRequest, 2)} CPU-ms/req (1 process)`,
      ratio: `${fmt.n(ratio, 2)}× the req/s`,
      target: 'none (2 cores)',
      met: true,
      raw: r,
    };
  } finally {
    await two.app.stop();
  }
};
