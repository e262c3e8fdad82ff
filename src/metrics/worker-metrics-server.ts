import { createServer } from 'node:http';
import { collectDefaultMetrics, register } from 'prom-client';
import type { AppConfig } from '../config/config';
import { sameSecret } from './metrics.controller';

/**
 * A worker process's own `GET /metrics` (WORKER_METRICS_PORT): the job and webhook counters live
 * where the jobs run, so a split deployment scrapes every worker as well as the API processes.
 * Same format and the same METRICS_TOKEN rule as the API's endpoint.
 */
export async function serveWorkerMetrics(config: AppConfig, port: number): Promise<{ close(): Promise<void> }> {
  collectDefaultMetrics({ register });
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'Only GET /metrics is served here.' } }));
      return;
    }
    if (config.METRICS_TOKEN && !sameSecret(req.headers.authorization ?? '', `Bearer ${config.METRICS_TOKEN}`)) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'unauthorized', message: 'The metrics require "Authorization: Bearer <METRICS_TOKEN>".' } }));
      return;
    }
    register.metrics().then(
      (text) => res.writeHead(200, { 'content-type': register.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: 'Metrics could not be collected.' } })),
    );
  });
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(port, config.HOST, () => listening()));
  return { close: () => new Promise<void>((closed) => server.close(() => closed())) };
}
