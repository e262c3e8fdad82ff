import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, register } from 'prom-client';
import { MetricsController } from './metrics.controller';
import { QueueMetrics } from './queue-metrics';

const requestSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
});

@Module({ controllers: [MetricsController], providers: [QueueMetrics] })
export class MetricsModule implements OnModuleInit {
  private static started = false;

  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    if (!MetricsModule.started) {
      collectDefaultMetrics({ register });
      MetricsModule.started = true;
    }
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    // Route templates, not raw URLs, so label cardinality stays bounded.
    fastify.addHook('onResponse', async (request, reply) => {
      requestSeconds.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  }
}
