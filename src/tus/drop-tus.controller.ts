import { Controller, Delete, Head, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Operation } from '../contract/operation.decorator';
import { UploadSlots } from '../submissions/upload-slots';
import { DropTusService } from './drop-tus.service';
import { tusOptions } from './tus-options';

/**
 * tus 1.0 (core, creation, termination, expiration) for senders: public, like the single POST, and
 * like it held to PUBLIC_UPLOADS_PER_IP requests carrying or awaiting bytes at once (creation,
 * PATCH, HEAD), across every API process. The creation is limited per client address (ApiKeyGuard);
 * a HEAD, PATCH or DELETE is too unless it continues an upload this drop admitted (see
 * DropTusService.limitUnadmitted): a chunked upload sends many a second.
 */
@Controller('v1/public/drops/:slug/tus')
export class DropTusController {
  constructor(
    private readonly tus: DropTusService,
    private readonly slots: UploadSlots,
  ) {}

  @Options()
  @Operation('getDropTusOptions')
  options(@Res() reply: FastifyReply) {
    return tusOptions(reply);
  }

  @Post()
  @Operation('createDropTusUpload')
  create(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.slots.during(req.ip, req.raw, reply.raw, () => this.tus.create(slug, req, reply));
  }

  @Head(':id')
  @Operation('getDropTusUploadOffset')
  async head(@Param('slug') slug: string, @Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.tus.limitUnadmitted(slug, id, req.ip);
    return this.slots.during(req.ip, req.raw, reply.raw, () => this.tus.serve(slug, id, req, reply));
  }

  @Patch(':id')
  @Operation('appendDropTusUpload')
  async patch(@Param('slug') slug: string, @Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.tus.limitUnadmitted(slug, id, req.ip);
    return this.slots.during(req.ip, req.raw, reply.raw, () => this.tus.serve(slug, id, req, reply));
  }

  @Delete(':id')
  @Operation('deleteDropTusUpload')
  async remove(@Param('slug') slug: string, @Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.tus.limitUnadmitted(slug, id, req.ip);
    return this.tus.serve(slug, id, req, reply);
  }
}
