import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Server } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Account } from '../accounts/account.entity';
import { ApiError } from '../common/api-error';
import { newId } from '../common/ids';
import { AppConfig, publicBaseUrl } from '../config/config';
import { limitsOf, MB } from '../config/plans';
import { UploadsService } from '../uploads/uploads.service';
import { handleTus } from './tus-bridge';
import { buildTusServer, declaredLength, findUpload, sniffStored, uploadMetadata } from './tus-server';
import { TUS_STORAGE } from './tus-storage.provider';
import type { TusStorage } from './tus-store';

/**
 * tus uploads for the jobs API (`/v1/uploads/tus[/{upl_…}]`): the id in the Location is the
 * `upl_…` id of the upload row created when the last byte arrives, usable as `input.fileId`.
 */
@Injectable()
export class UploadTusService {
  private readonly current = new AsyncLocalStorage<Account>();
  private readonly server: Server;

  constructor(
    @Inject(TUS_STORAGE) private readonly tus: TusStorage,
    private readonly uploads: UploadsService,
    config: AppConfig,
  ) {
    this.server = buildTusServer(tus.store, publicBaseUrl(config), {
      namingFunction: () => newId('upl'),
      maxSize: () => limitsOf(this.account().plan).maxFileSizeMB * MB,
      onUploadCreate: async (_req, upload) => ({ metadata: { ...upload.metadata, accountId: this.account().id } }),
      onUploadFinish: async (_req, upload) => {
        await this.finish(upload);
        return {};
      },
    });
  }

  async create(account: Account, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const limitMB = limitsOf(account.plan).maxFileSizeMB;
    const length = declaredLength(req);
    if (length !== undefined && length > limitMB * MB) {
      throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'file_too_large', `The file exceeds the ${account.plan} plan's upload limit of ${limitMB} MB.`);
    }
    uploadMetadata(req);
    return this.current.run(account, () => handleTus(this.server, req, reply));
  }

  /** HEAD, PATCH, DELETE; another account's upload is a 404. */
  async serve(account: Account, id: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const upload = await findUpload(this.tus.store, id);
    if (upload && upload.metadata?.accountId !== account.id) throw ApiError.notFound('Upload');
    return this.current.run(account, () => handleTus(this.server, req, reply));
  }

  private account(): Account {
    const account = this.current.getStore();
    if (!account) throw new Error('tus hook called outside an authenticated request');
    return account;
  }

  private async finish(upload: Upload): Promise<void> {
    const sniffed = await sniffStored(this.tus.store, upload.id);
    await this.tus.adopt(upload.id);
    const metadata = (upload.metadata ?? {}) as Record<string, string>;
    await this.uploads.createFromStored(this.account(), upload.id, metadata.filename, {
      storageKey: upload.id,
      size: upload.size ?? upload.offset,
      mime: sniffed.mime,
      kind: sniffed.kind,
    });
  }
}
