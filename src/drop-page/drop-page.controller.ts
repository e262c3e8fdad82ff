import { Controller, Get, Param, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Clock } from '../common/clock';
import { Operation } from '../contract/operation.decorator';
import { DropsService } from '../drops/drops.service';
import { DropPageErrorFilter } from './drop-page.filter';
import { sendHtml } from './drop-page.headers';
import { dropPageData, renderDropPage } from './drop-page.view';

/**
 * `GET /d/{slug}`: the sender's upload page (docs/decisions.md §6). Public, like the intake it posts to.
 * findBySlug's 404 — and any other failure — becomes an HTML page in DropPageErrorFilter.
 */
@Controller()
@UseFilters(DropPageErrorFilter)
export class DropPageController {
  constructor(
    private readonly drops: DropsService,
    private readonly clock: Clock,
  ) {}

  @Get('d/:slug')
  @Operation('getDropPage')
  async page(@Param('slug') slug: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const drop = await this.drops.findBySlug(slug);
    return sendHtml(reply, 200, (nonce) => renderDropPage(dropPageData(drop, this.clock.now()), nonce), true);
  }
}
