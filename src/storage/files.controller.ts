import { Controller, Get, Headers, HttpStatus, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ApiError } from '../common/api-error';
import { Operation } from '../contract/operation.decorator';
import { parseRange } from './byte-range';
import { contentDisposition } from './content-disposition';
import { DownloadUrlSigner } from './download-url-signer';
import { LocalStorageDriver } from './local-storage.driver';
import { STORAGE, type StorageDriver } from './storage.driver';

/**
 * `GET /v1/files/{key}`: serves the local driver's signed download URLs. Public: the signature is
 * the credential. With S3 storage clients download from the store, so every key is 404 here.
 */
@Controller('v1/files')
export class FilesController {
  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly signer: DownloadUrlSigner,
  ) {}

  @Get(':key')
  @Operation('downloadFile')
  async download(
    @Param('key') key: string,
    @Query('expires') expires: number | string,
    @Query('name') name: string,
    @Query('sig') sig: string,
    @Headers('range') range: string | undefined,
    @Headers('if-range') ifRange: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const verdict = this.signer.verify({ key, name, expires: Number(expires), sig });
    if (verdict === 'invalid_signature') {
      throw ApiError.forbidden('invalid_signature', 'The download URL is invalid or has been altered.');
    }
    if (verdict === 'url_expired') {
      throw ApiError.forbidden('url_expired', `The download URL expired at ${new Date(Number(expires) * 1000).toISOString()}.`);
    }
    if (!(this.storage instanceof LocalStorageDriver)) throw ApiError.notFound('File');
    const file = await this.storage.open(key);
    if (!file) throw ApiError.notFound('File');

    let streaming = false;
    try {
      // Stored objects never change, so size + mtime is a strong validator for If-Range.
      const etag = `"${file.size.toString(16)}-${Math.floor(file.modifiedAt.getTime()).toString(16)}"`;
      const lastModified = file.modifiedAt.toUTCString();
      const honourRange = !ifRange || ifRange === etag || ifRange === lastModified;
      const wanted = honourRange ? parseRange(range, file.size) : { kind: 'full' as const };
      if (wanted.kind === 'unsatisfiable') {
        throw new ApiError(
          HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
          'range_not_satisfiable',
          `The requested range is outside the file (${file.size} bytes).`,
          undefined,
          { 'content-range': `bytes */${file.size}` },
        );
      }
      reply.headers({
        'content-type': 'application/octet-stream',
        'content-disposition': contentDisposition(name),
        'accept-ranges': 'bytes',
        etag,
        'last-modified': lastModified,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      });
      if (wanted.kind === 'partial') {
        reply
          .status(HttpStatus.PARTIAL_CONTENT)
          .header('content-range', `bytes ${wanted.start}-${wanted.end}/${file.size}`)
          .header('content-length', wanted.end - wanted.start + 1);
      } else {
        reply.status(HttpStatus.OK).header('content-length', file.size);
      }
      // HEAD (Fastify's automatic twin of this GET) needs the headers only. An empty stream keeps
      // Fastify from reading the file just to discard it, and from rewriting Content-Length.
      if (request.method === 'HEAD') return reply.send(Readable.from([]));
      const body = file.stream(wanted.kind === 'partial' ? wanted : undefined);
      streaming = true;
      return reply.send(body);
    } finally {
      if (!streaming) await file.close();
    }
  }
}
