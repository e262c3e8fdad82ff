import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { asMultipartError } from '../common/multipart-errors';
import { Operation } from '../contract/operation.decorator';
import { toUploadView, UploadsService } from './uploads.service';

@Controller('v1/uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post()
  @HttpCode(201)
  @Operation('createUpload')
  async create(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    try {
      return { upload: toUploadView(await this.uploads.receive(req.auth!.account, req)) };
    } catch (caught) {
      const err = asMultipartError(caught);
      if (err instanceof ApiError) reply.header('connection', 'close'); // do not read the rest of a refused upload
      throw err;
    }
  }
}
