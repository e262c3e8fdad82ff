import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { preferredWait } from '../common/prefer';
import { Operation } from '../contract/operation.decorator';
import type { Body as RequestBody, Ok, Query as QueryOf } from '../contract/operation-types';
import { IdempotencyService } from './idempotency.service';
import { JobsService } from './jobs.service';
import { isFinal } from './lifecycle/job-states';
import { CancelJob } from './use-cases/cancel-job';
import { QuoteJob } from './use-cases/quote-job';
import { SubmitJob } from './use-cases/submit-job';
import { waitingFor } from './waiting.presenter';

/**
 * Served under /v1 and /api/v1 (docs/decisions.md §1). The contract lists the /api/v1 operations
 * separately (apiCreateJob, …) with the same schemas: they are aliases, validated with the /v1 one.
 */
@Controller(['v1/jobs', 'api/v1/jobs'])
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly idempotency: IdempotencyService,
    private readonly submitJob: SubmitJob,
    private readonly quoteJob: QuoteJob,
    private readonly cancelJob: CancelJob,
  ) {}

  @Post()
  @Operation('createJob', { aliases: ['apiCreateJob'] })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: RequestBody<'createJob'>,
    @Query() q: QueryOf<'createJob'>,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const startedAt = Date.now();
    const valid = await this.jobs.validate(auth, body);
    const key = { id: auth.key.id, dailyCap: auth.key.dailyCap, monthlyCap: auth.key.monthlyCap };
    if (q.dryRun) {
      reply.status(200);
      return this.quoteJob.execute({ account: auth.account, key, ...valid, webhookUrl: body.webhookUrl ?? null });
    }
    const idempotency = this.idempotency.request(body, idempotencyKey);
    const result = await this.submitJob.execute({ account: auth.account, key, ...valid, webhookUrl: body.webhookUrl ?? null, idempotency });
    // The spec fixes the 202's body ({id, state, statusUrl}); the poll address also goes where HTTP puts it.
    const { id, statusUrl } = result.body as { id?: unknown; statusUrl?: unknown };
    if (result.status === 202 && typeof statusUrl === 'string') reply.header('location', statusUrl);
    // Prefer: wait — also on an idempotent replay, which waits on the original job.
    const wait = preferredWait(prefer);
    if (wait !== undefined && result.status === 202 && typeof id === 'string') {
      const job = await waitingFor(reply, wait, startedAt, (timeoutMs, signal) => this.jobs.waitFor(auth, id, timeoutMs, signal));
      if (job && isFinal(job.state)) {
        reply.status(200);
        // The 202's fields beside the job: `.id` reads the same whichever answer came.
        return { id: job.id, state: job.state, statusUrl, job };
      }
    }
    reply.status(result.status);
    return result.body;
  }

  @Get()
  @Operation('listJobs', { aliases: ['apiListJobs'] })
  list(@Auth() auth: AuthContext, @Query() q: QueryOf<'listJobs'>): Promise<Ok<'listJobs'>> {
    return this.jobs.list(auth, q.limit ?? 100, q.cursor, q.state, q.tool);
  }

  @Get(':id')
  @Operation('getJob', { aliases: ['apiGetJob'] })
  async get(
    @Auth() auth: AuthContext,
    @Param('id') id: string,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Ok<'getJob'> | undefined> {
    const wait = preferredWait(prefer);
    if (wait === undefined) return { job: await this.jobs.get(auth, id) };
    const job = await waitingFor(reply, wait, Date.now(), (timeoutMs, signal) => this.jobs.waitFor(auth, id, timeoutMs, signal));
    // Undefined: the client hung up, nobody reads the answer.
    return job && { job };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Operation('cancelJob', { aliases: ['apiCancelJob'] })
  async cancel(@Auth() auth: AuthContext, @Param('id') id: string): Promise<Ok<'cancelJob'>> {
    const canceled = await this.cancelJob.execute(auth.key.id, id);
    return { job: await this.jobs.view(canceled) };
  }
}
