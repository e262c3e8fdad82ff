import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { DROP_PAGE_ASSETS } from './drop-page.view';

/** `/d/assets/{name}`: the drop page's script, stylesheet and tus-js-client, from this origin (no CDN). */
@Controller('d/assets')
export class DropPageAssetsController {
  @Get(':name')
  asset(@Param('name') name: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    const asset = DROP_PAGE_ASSETS.get(name);
    if (!asset) throw DomainError.notFound('Asset');
    reply.header('etag', asset.etag).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === asset.etag) return reply.status(304).send();
    return reply.header('content-type', asset.contentType).send(asset.body);
  }
}
