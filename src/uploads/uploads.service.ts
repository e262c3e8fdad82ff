import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import type { Repository } from 'typeorm';
import type { Upload as UploadView } from '../../generated/types';
import type { Account } from '../accounts/account.entity';
import { ApiError } from '../common/api-error';
import { sanitizeFileName } from '../common/file-sniffer';
import { newId } from '../common/ids';
import { limitsOf, MB } from '../config/plans';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { storeFilePart } from '../storage/store-file-part';
import { Upload } from './upload.entity';

export const UPLOAD_TTL_MS = 24 * 3600 * 1000;

/** `POST /v1/uploads`: one file streamed to storage under the plan's size limit, kept 24 h. */
@Injectable()
export class UploadsService {
  constructor(
    @InjectRepository(Upload) private readonly uploads: Repository<Upload>,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  async receive(account: Account, request: FastifyRequest): Promise<Upload> {
    if (!request.isMultipart()) {
      throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_media_type', 'Send the file as multipart/form-data.');
    }
    const limitMB = limitsOf(account.plan).maxFileSizeMB;
    const tooLarge = new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'file_too_large', `The file exceeds the ${account.plan} plan's upload limit of ${limitMB} MB.`);
    if (Number(request.headers['content-length']) > limitMB * MB + 64 * 1024) throw tooLarge;

    const part = await request.file();
    if (!part) throw ApiError.validation('The form has no file: send it in a part named "file".', [{ path: 'body/file', message: 'is required' }]);
    const stored = await storeFilePart(this.storage, part, { maxBytes: limitMB * MB, tooLarge: () => tooLarge });
    const { storageKey, size } = stored;
    const upload = this.uploads.create({
      id: newId('upl'),
      accountId: account.id,
      storageKey,
      fileName: sanitizeFileName(part.filename),
      fileSize: size,
      fileMime: stored.mime,
      fileKind: stored.kind,
      expiresAt: new Date(Date.now() + UPLOAD_TTL_MS),
    });
    try {
      await this.uploads.insert(upload);
    } catch (err) {
      await this.storage.delete(storageKey);
      throw err;
    }
    return this.uploads.findOneByOrFail({ id: upload.id });
  }

  /** Removes expired uploads and their files (run by the worker's sweeper). */
  async purgeExpired(): Promise<number> {
    const [rows]: [{ storage_key: string }[], number] = await this.uploads.query(
      'DELETE FROM uploads WHERE id IN (SELECT id FROM uploads WHERE expires_at < now() LIMIT 500) RETURNING storage_key',
    );
    if (rows.length > 0) await this.storage.deleteMany(rows.map((r) => r.storage_key));
    return rows.length;
  }
}

export function toUploadView(u: Upload): UploadView {
  return {
    id: u.id,
    fileName: u.fileName,
    fileSize: u.fileSize,
    fileMime: u.fileMime,
    fileKind: u.fileKind,
    createdAt: u.createdAt.toISOString(),
    expiresAt: u.expiresAt.toISOString(),
  };
}
