import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Body as RequestBody, Ok, Query as QueryOf } from '../contract/operation-types';
import { requestActor } from '../drops/drop-events.repository';
import { DropsService } from '../drops/drops.service';
import { SubmissionsService } from './submissions.service';
import { toSubmissionView } from './submission-views';

/** The owner's API for a drop's submissions. */
@Controller('v1/drops/:slug/submissions')
export class SubmissionsController {
  constructor(
    private readonly drops: DropsService,
    private readonly submissions: SubmissionsService,
  ) {}

  @Get()
  @Operation('listSubmissions')
  async list(@Auth() auth: AuthContext, @Param('slug') slug: string, @Query() query: QueryOf<'listSubmissions'>): Promise<Ok<'listSubmissions'>> {
    const drop = await this.drops.get(auth.account.id, slug);
    const { limit = 100, cursor, ...filters } = query;
    const page = await this.submissions.list(drop, limit, cursor, filters);
    return { submissions: page.items.map(toSubmissionView), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @Operation('getSubmission')
  async get(@Auth() auth: AuthContext, @Param('slug') slug: string, @Param('id') id: string): Promise<Ok<'getSubmission'>> {
    const drop = await this.drops.get(auth.account.id, slug);
    return { submission: toSubmissionView(await this.submissions.get(drop, id)) };
  }

  @Patch(':id')
  @Operation('updateSubmission')
  async update(@Auth() auth: AuthContext, @Param('slug') slug: string, @Param('id') id: string, @Body() body: RequestBody<'updateSubmission'>): Promise<Ok<'updateSubmission'>> {
    const drop = await this.drops.get(auth.account.id, slug);
    return { submission: toSubmissionView(await this.submissions.update(drop, id, body)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation('deleteSubmission')
  async delete(@Auth() auth: AuthContext, @Param('slug') slug: string, @Param('id') id: string, @Req() req: FastifyRequest): Promise<void> {
    const drop = await this.drops.get(auth.account.id, slug);
    await this.submissions.delete(drop, id, requestActor(req.ip, req.headers['user-agent'], auth.key.id));
  }

  @Get(':id/download')
  @Operation('getSubmissionDownload')
  async download(
    @Auth() auth: AuthContext,
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Query() query: QueryOf<'getSubmissionDownload'>,
    @Req() req: FastifyRequest,
  ): Promise<Ok<'getSubmissionDownload'>> {
    const drop = await this.drops.get(auth.account.id, slug);
    return this.submissions.downloadLink(drop, id, query.processed === true, query.output, requestActor(req.ip, req.headers['user-agent'], auth.key.id));
  }
}
