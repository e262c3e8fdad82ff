'use strict';
/**
 * Reference of the API-overhead benchmark: a bare Fastify route running the same single-row query
 * as GET /v1/drops/{slug}, through a pg Pool the size of the service's (20). No auth, no Nest.
 * Env: PORT, DATABASE_URL.
 */
const fastify = require('fastify')({ logger: false });
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

fastify.get('/drops/:slug', async (request, reply) => {
  const { rows } = await pool.query('SELECT * FROM drops WHERE slug = $1', [request.params.slug]);
  if (rows.length === 0) return reply.code(404).send({ error: { code: 'not_found', message: 'Drop not found.' } });
  return { drop: rows[0] };
});
fastify.get('/healthz', async () => ({ ok: true }));

fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((err) => {
  console.error(err);
  process.exit(1);
});
process.on('SIGTERM', () => fastify.close().then(() => pool.end()).finally(() => process.exit(0)));
