import { Controller, Get, Header, Headers } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { register } from 'prom-client';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';

/**
 * Prometheus scrape endpoint (docs/decisions.md §10): process metrics and per-route request timings.
 * With METRICS_TOKEN set, only a scraper sending `Authorization: Bearer <METRICS_TOKEN>` may read them.
 */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly config: AppConfig) {}

  @Get()
  @Header('content-type', register.contentType)
  metrics(@Headers('authorization') authorization: string | undefined): Promise<string> {
    const token = this.config.METRICS_TOKEN;
    if (token && !sameSecret(authorization ?? '', `Bearer ${token}`)) {
      throw new DomainError('unauthorized', 'The metrics require "Authorization: Bearer <METRICS_TOKEN>".');
    }
    return register.metrics();
  }
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
