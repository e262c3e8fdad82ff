import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type Redis from 'ioredis';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { DatabaseHealthRepository } from '../database/database-health.repository';
import { REDIS } from '../redis/redis.module';
import { ClamdScanner } from '../scanning/clamd-scanner';
import { ToolAvailability } from '../tools/tool-availability';

const CHECK_TIMEOUT_MS = 1000;

@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseHealthRepository,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly scanner: ClamdScanner,
    private readonly tools: ToolAvailability,
  ) {}

  @Get('healthz')
  @Operation('getHealth')
  health(): Ok<'getHealth'> {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Operation('getReadiness')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Ok<'getReadiness'>> {
    const [postgres, redis, scanner, programs] = await Promise.all([
      probe(() => this.database.ping()),
      probe(() => this.redis.ping()),
      this.scanner.enabled ? probe(async () => (await this.scanner.ping()) || Promise.reject(new Error('no PONG'))) : Promise.resolve(undefined),
      this.tools.checks(),
    ]);
    const ok = postgres && redis;
    reply.status(ok ? 200 : 503);
    // The scanner and the tools' programs are reported, not required: without the scanner files wait
    // (pending); without ffmpeg only its tools refuse jobs. The API still serves.
    const scanning = scanner === undefined ? 'off' : scanner ? 'ok' : 'down';
    return { status: ok ? 'ok' : 'unavailable', checks: { postgres: postgres ? 'ok' : 'down', redis: redis ? 'ok' : 'down', scanning, ...programs } };
  }
}

async function probe(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS)))]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
