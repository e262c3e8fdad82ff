import { Controller, Delete, Head, Options, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Operation } from '../contract/operation.decorator';
import { tusOptions } from './tus-options';
import { UploadTusService } from './upload-tus.service';

/** tus 1.0 for the jobs API's uploads: bearer key with `uploads:write` (checked by the global guards). */
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
  head(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.tus.serve(req.auth!.account, id, req, reply);
  }

  @Patch(':id')
  @Operation('appendTusUpload')
  patch(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.tus.serve(req.auth!.account, id, req, reply);
  }

  @Delete(':id')
  @Operation('deleteTusUpload')
  remove(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.tus.serve(req.auth!.account, id, req, reply);
  }
}
