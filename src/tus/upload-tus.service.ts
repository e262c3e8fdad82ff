import { Inject, Injectable } from '@nestjs/common';
import type { Server } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Account } from '../accounts/account.entity';
import type { ApiKey } from '../auth/api-key.entity';
import { RequestLimits } from '../auth/request-limits';
import type { RateLimitState } from '../auth/rate-limiter.service';
import { newId } from '../common/ids';
import { AppConfig, publicBaseUrl } from '../config/config';
import { limitsOf, MB } from '../config/plans';
import { planFileTooLarge, UploadsService } from '../uploads/uploads.service';
import { accountScope, AdmittedUploads } from './admitted-uploads';
import { RedisLocker } from './redis-locker';
import { handleTus } from './tus-bridge';
import { accountOwner, OwnedStore, ownedMetadata, refuseReservedMetadata } from './tus-owner';
import { buildTusServer, declaredLength, refuseUnofferedExtensions, sniffStored, uploadMetadata } from './tus-server';
import { TUS_STORAGE } from './tus-storage.provider';
import type { TusStorage } from './tus-store';

/**
 * tus uploads for the jobs API (`/v1/uploads/tus[/{upl_…}]`): the id in the Location is the
 * `upl_…` id of the upload row created when the last byte arrives, usable as `input.fileId`.
 * The upload belongs to the key's account (tus-owner.ts): no other account, and no drop's tus URL,
 * can see it; the plan's size limit is checked at creation and again when the last byte arrives.
 */
@Injectable()
export class UploadTusService {
  private readonly current = new AsyncLocalStorage<Account>();
  private readonly server: Server;
  private readonly owned: OwnedStore;

  constructor(
    @Inject(TUS_STORAGE) private readonly tus: TusStorage,
    private readonly uploads: UploadsService,
    private readonly admitted: AdmittedUploads,
    private readonly limits: RequestLimits,
    locker: RedisLocker,
    config: AppConfig,
  ) {
    this.owned = new OwnedStore(tus.store, () => accountOwner(this.account().id), {
      created: (id) => this.admitted.admit(id, accountScope(this.account().id)),
      removed: (id) => this.admitted.forget(id),
    });
    this.server = buildTusServer(this.owned, publicBaseUrl(config), locker, {
      namingFunction: () => newId('upl'),
      maxSize: () => limitsOf(this.account().plan).maxFileSizeMB * MB,
      onUploadCreate: async (_req, upload) => ({ metadata: ownedMetadata(upload.metadata, accountOwner(this.account().id)) }),
      onUploadFinish: async (_req, upload) => {
        await this.finish(upload);
        return {};
      },
    });
  }

  async create(account: Account, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    refuseUnofferedExtensions(req);
    const length = declaredLength(req);
    if (length !== undefined && length > limitsOf(account.plan).maxFileSizeMB * MB) throw planFileTooLarge(account);
    refuseReservedMetadata(uploadMetadata(req));
    return this.current.run(account, () => handleTus(this.server, req, reply));
  }

  /**
   * The key's request limit for a HEAD, PATCH or DELETE: none for an upload this account admitted
   * here and that is still open (undefined: nothing counted), the key's (429 `rate_limited`) for
   * any other id. Costs one Redis read, no database or storage read.
   */
  async limitUnadmitted(key: ApiKey, id: string): Promise<RateLimitState | undefined> {
    if (await this.admitted.has(id, accountScope(key.account.id))) return undefined;
    return this.limits.key(key);
  }

  /** HEAD, PATCH, DELETE of an upload this account created here; any other upload id is a 404 (OwnedStore). */
  async serve(account: Account, id: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return this.current.run(account, async () => {
      await this.owned.refuseForeign(id);
      return handleTus(this.server, req, reply);
    });
  }

  private account(): Account {
    const account = this.current.getStore();
    if (!account) throw new Error('tus hook called outside an authenticated request');
    return account;
  }

  /** The last byte is stored: the upload row, unless the file is now over the plan's limit (the upload is removed). */
  private async finish(upload: Upload): Promise<void> {
    const account = this.account();
    const size = upload.size ?? upload.offset;
    // Finished, whether it becomes an upload row or is refused: no more requests continue it.
    await this.admitted.forget(upload.id);
    if (size > limitsOf(account.plan).maxFileSizeMB * MB) {
      await this.tus.discard(upload.id).catch(() => undefined);
      throw planFileTooLarge(account);
    }
    const sniffed = await sniffStored(this.tus.store, upload.id);
    await this.tus.adopt(upload.id);
    const metadata = (upload.metadata ?? {}) as Record<string, string>;
    await this.uploads.createFromStored(account, upload.id, metadata.filename, {
      storageKey: upload.id,
      size,
      mime: sniffed.mime,
      kind: sniffed.kind,
      ext: sniffed.ext,
    });
  }
}
