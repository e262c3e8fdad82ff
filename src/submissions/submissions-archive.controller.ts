import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Operation } from '../contract/operation.decorator';
import { DropsService } from '../drops/drops.service';
import { contentDisposition } from '../storage/content-disposition';
import { SubmissionsArchiveService } from './submissions-archive.service';

/** Download-all: a drop's submissions as one streamed ZIP. */
@Controller('v1/drops/:slug/submissions/archive')
export class SubmissionsArchiveController {
  constructor(
    private readonly drops: DropsService,
    private readonly archives: SubmissionsArchiveService,
  ) {}

  @Get()
  @Operation('downloadSubmissionsArchive')
  async download(
    @Req() req: FastifyRequest,
    @Param('slug') slug: string,
    @Query() query: { isRead?: boolean; isStarred?: boolean; isArchived?: boolean; processed?: boolean },
    @Res() reply: FastifyReply,
  ) {
    const drop = await this.drops.get(req.auth!.account.id, slug);
    const { processed, ...filters } = query;
    const zip = this.archives.stream(drop, filters, processed === true);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(`${drop.slug}.zip`))
      .header('cache-control', 'no-store')
      .send(zip);
  }
}
