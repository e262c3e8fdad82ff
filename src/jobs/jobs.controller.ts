import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JobCreate } from '../../generated/types';
import { Operation } from '../contract/operation.decorator';
import type { JobState } from './job.entity';
import { JobsService } from './jobs.service';

/**
 * Served under /v1 and /api/v1 (spec 4.2). The contract lists the /api/v1 operations separately
 * (apiCreateJob, …) with the same schemas, so both prefixes validate with the /v1 operation.
 */
@Controller(['v1/jobs', 'api/v1/jobs'])
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Post()
  @Operation('createJob')
  async create(@Req() req: FastifyRequest, @Body() body: JobCreate, @Res({ passthrough: true }) reply: FastifyReply) {
    const header = req.headers['idempotency-key'];
    const result = await this.jobs.create(req.auth!, body, typeof header === 'string' ? header : undefined);
    reply.status(result.status);
    return result.body;
  }

  @Get()
  @Operation('listJobs')
  list(@Req() req: FastifyRequest, @Query() q: { limit?: number; cursor?: string; state?: JobState; tool?: string }) {
    return this.jobs.list(req.auth!, q.limit ?? 100, q.cursor, q.state, q.tool);
  }

  @Get(':id')
  @Operation('getJob')
  async get(@Req() req: FastifyRequest, @Param('id') id: string) {
    return { job: await this.jobs.get(req.auth!, id) };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Operation('cancelJob')
  async cancel(@Req() req: FastifyRequest, @Param('id') id: string) {
    return { job: await this.jobs.cancel(req.auth!, id) };
  }
}
