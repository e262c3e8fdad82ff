import { Controller, Get, Header } from '@nestjs/common';
import { register } from 'prom-client';

/** Prometheus scrape endpoint (PRODUCT.md §10): process metrics and per-route request timings. */
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('content-type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
