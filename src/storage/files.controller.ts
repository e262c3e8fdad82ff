import { Controller, Get, Head, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../common/domain-error';
import { servedContentType } from '../common/file-sniffer';
import { Operation } from '../contract/operation.decorator';
import type { Query as QueryOf } from '../contract/operation-types';
import { contentDisposition } from './content-disposition';
import { DownloadUrlSigner } from './download-url-signer';
import { StorageTombstonesRepository } from './storage-tombstones.repository';
import { STORAGE, type StorageDriver } from './storage.driver';

/**
 * `GET /v1/files/{key}` (and HEAD): serves the local driver's signed download URLs. Public: the signature is
 * the credential. With S3 storage clients download from the store, so every key is 404 here.
 * `reply.sendFile` (@fastify/static) answers Range, If-Range, conditional GET and HEAD; a range
 * past the end becomes the 416 envelope in the global filter.
 */
@Controller('v1/files')
export class FilesController {
  constructor(
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly signer: DownloadUrlSigner,
    private readonly tombstones: StorageTombstonesRepository,
  ) {}

  /** GET without the body: declared before GET, or Fastify would have made a HEAD route of its own for it. */
  @Head(':key')
  @Operation('headFile')
  head(@Param('key') key: string, @Query() query: QueryOf<'headFile'>, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.download(key, query, reply);
  }

  @Get(':key')
  @Operation('downloadFile')
  async download(@Param('key') key: string, @Query() query: QueryOf<'downloadFile'>, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { expires, name, sig, type } = query;
    const verdict = this.signer.verify({ key, name, expires, sig, type });
    if (verdict === 'invalid_signature') {
      throw new DomainError('invalid_signature', 'The download URL is invalid or has been altered.');
    }
    if (verdict === 'url_expired') {
      throw new DomainError('url_expired', `The download URL expired at ${new Date(expires * 1000).toISOString()}.`);
    }
    const file = await this.storage.servedFile(key);
    if (!file) throw await this.gone(key);

    reply.headers({
      'content-type': servedContentType(type),
      'content-disposition': contentDisposition(name),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    // Stored objects never change, so send's size + mtime ETag and Last-Modified are sound validators.
    return reply.sendFile(file.path, file.root, { contentType: false, cacheControl: false, acceptRanges: true, etag: true, lastModified: true });
  }

  /**
   * Asked only when the file is missing, so a download costs no query: 403 for a quarantined file
   * (moved out of reach before its verdict was recorded), 410 for one retention removed (a
   * tombstone remembers either as long as its URLs live), else 404.
   */
  private async gone(key: string): Promise<DomainError> {
    const tombstone = await this.tombstones.find(key);
    if (!tombstone) return DomainError.notFound('File');
    if (tombstone.reason === 'quarantined') {
      return new DomainError('quarantined', 'This file is quarantined: the malware scan found malware in the submission it belongs to. It can only be deleted.');
    }
    return new DomainError(tombstone.reason, `The job's output was removed on ${tombstone.purgedAt.toISOString()} (retention); run the job again to get it.`);
  }
}
