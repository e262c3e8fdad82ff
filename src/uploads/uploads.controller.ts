import { Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Form, MultipartInterceptor } from '../common/multipart';
import type { MultipartForm } from '../common/multipart-form';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { toUploadView, UploadsService } from './uploads.service';

@Controller('v1/uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post()
  @HttpCode(201)
  @Operation('createUpload')
  @UseInterceptors(MultipartInterceptor)
  async create(@Auth() auth: AuthContext, @Form() form: MultipartForm): Promise<Ok<'createUpload'>> {
    return { upload: toUploadView(await this.uploads.receive(auth.account, form)) };
  }
}
