import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { SubmissionUpdate } from '../../generated/types';
import { Operation } from '../contract/operation.decorator';
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
  async list(
    @Req() req: FastifyRequest,
    @Param('slug') slug: string,
    @Query() query: { limit?: number; cursor?: string; isRead?: boolean; isStarred?: boolean; isArchived?: boolean },
  ) {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    const { limit = 100, cursor, ...filters } = query;
    const page = await this.submissions.list(drop, limit, cursor, filters);
    return { submissions: page.items.map(toSubmissionView), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @Operation('getSubmission')
  async get(@Req() req: FastifyRequest, @Param('slug') slug: string, @Param('id') id: string) {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    return { submission: toSubmissionView(await this.submissions.get(drop, id)) };
  }

  @Patch(':id')
  @Operation('updateSubmission')
  async update(@Req() req: FastifyRequest, @Param('slug') slug: string, @Param('id') id: string, @Body() body: SubmissionUpdate) {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    return { submission: toSubmissionView(await this.submissions.update(drop, id, body)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation('deleteSubmission')
  async delete(@Req() req: FastifyRequest, @Param('slug') slug: string, @Param('id') id: string): Promise<void> {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    await this.submissions.delete(drop, id);
  }

  @Get(':id/download')
  @Operation('getSubmissionDownload')
  async download(@Req() req: FastifyRequest, @Param('slug') slug: string, @Param('id') id: string, @Query('processed') processed?: boolean) {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    return this.submissions.downloadLink(drop, id, processed === true);
  }
}
