import { Inject, Injectable } from '@nestjs/common';
import type { Upload as UploadView } from '../../generated/types';
import type { Account } from '../accounts/account.entity';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { sanitizeFileName } from '../common/file-sniffer';
import { newId } from '../common/ids';
import type { MultipartForm } from '../common/multipart-form';
import { limitsOf, MB } from '../config/plans';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { type StoredPart, storeFilePart } from '../storage/store-file-part';
import type { Upload } from './upload.entity';
import { intakeBytes } from '../metrics/dropline-metrics';
import { UploadsRepository } from './uploads.repository';

export const UPLOAD_TTL_MS = 24 * 3600 * 1000;

/** `POST /v1/uploads`: one file streamed to storage under the plan's size limit, kept 24 h. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly clock: Clock,
  ) {}

  async receive(account: Account, form: MultipartForm): Promise<Upload> {
    const limitMB = limitsOf(account.plan).maxFileSizeMB;
    const tooLarge = planFileTooLarge(account);
    const { file } = await form.read({ maxFileBytes: limitMB * MB, tooLarge: () => tooLarge });
    if (!file) throw DomainError.validation('The form has no file: send it in a part named "file".', [{ path: 'body/file', message: 'is required' }]);
    const stored = await storeFilePart(this.storage, file, { maxBytes: limitMB * MB, tooLarge: () => tooLarge });
    return this.createFromStored(account, newId('upl'), file.fileName, stored);
  }

  /** The upload row of a file already in storage (the multipart POST, or a finished tus upload). */
  async createFromStored(account: Account, id: string, fileName: string | undefined, stored: StoredPart): Promise<Upload> {
    const { storageKey, size } = stored;
    const upload = {
      id,
      accountId: account.id,
      storageKey,
      fileName: sanitizeFileName(fileName),
      fileSize: size,
      fileMime: stored.mime,
      fileKind: stored.kind,
      expiresAt: new Date(this.clock.now().getTime() + UPLOAD_TTL_MS),
    };
    try {
      const inserted = await this.uploads.insert(upload);
      intakeBytes.inc({ source: 'upload' }, size);
      return inserted;
    } catch (err) {
      await this.storage.delete(storageKey);
      throw err;
    }
  }

  /** The account's upload while it lasts, or undefined (expired uploads are as good as gone). */
  async findCurrent(accountId: string, id: string): Promise<Upload | undefined> {
    const upload = await this.uploads.findForAccount(id, accountId);
    return upload && upload.expiresAt.getTime() > this.clock.now().getTime() ? upload : undefined;
  }

  /** Removes expired uploads and their files (run by the worker's sweeper). */
  async purgeExpired(): Promise<number> {
    const keys = await this.uploads.deleteExpired(this.clock.now(), 500);
    if (keys.length > 0) await this.storage.deleteMany(keys);
    return keys.length;
  }
}

/** 413 `file_too_large`: over the plan's upload limit (an upload, a tus upload, a job's `input.fileId`). */
export function planFileTooLarge(account: Pick<Account, 'plan'>): DomainError {
  const limitMB = limitsOf(account.plan).maxFileSizeMB;
  return new DomainError('file_too_large', `The file exceeds the ${account.plan} plan's upload limit of ${limitMB} MB.`);
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
