import { Controller, Delete, Head, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../common/rate-limit-headers';
import { Operation } from '../contract/operation.decorator';
import { tusOptions } from './tus-options';
import { UploadTusService } from './upload-tus.service';

/**
 * tus 1.0 for the jobs API's uploads: bearer key with `uploads:write` (checked by the global guards).
 * The creation counts against the key's request limit (ApiKeyGuard); a HEAD, PATCH or DELETE does
 * too unless it continues an upload the account admitted here (UploadTusService.limitUnadmitted),
 * and then carries no RateLimit-* headers, having counted for nothing.
 */
@Controller('v1/uploads/tus')
export class UploadTusController {
  constructor(private readonly tus: UploadTusService) {}

  @Options()
  @Operation('getUploadTusOptions')
  options(@Res() reply: FastifyReply) {
    return tusOptions(reply);
  }

  @Post()
  @Operation('createTusUpload')
  create(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.tus.create(req.auth!.account, req, reply);
  }

  @Head(':id')
  @Operation('getTusUploadOffset')
  async head(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.limit(id, req, reply);
    return this.tus.serve(req.auth!.account, id, req, reply);
  }

  @Patch(':id')
  @Operation('appendTusUpload')
  async patch(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.limit(id, req, reply);
    return this.tus.serve(req.auth!.account, id, req, reply);
  }

  @Delete(':id')
  @Operation('deleteTusUpload')
  async remove(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    await this.limit(id, req, reply);
    return this.tus.serve(req.auth!.account, id, req, reply);
  }

  private async limit(id: string, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const counted = await this.tus.limitUnadmitted(req.auth!.key, id);
    if (counted) reply.headers(rateLimitHeaders(counted));
  }
}
