import { Inject, Injectable } from '@nestjs/common';
import type { Server } from '@tus/server';
import type { Upload } from '@tus/utils';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../common/domain-error';
import { newId } from '../common/ids';
import { AppConfig, publicBaseUrl } from '../config/config';
import { MB } from '../config/plans';
import type { Drop } from '../drops/drop.entity';
import { DropsService } from '../drops/drops.service';
import { dropPasswordHeader } from '../drops/drop-gate';
import { checkExtension, checkRoom } from '../drops/drop-limits';
import { RequestLimits } from '../auth/request-limits';
import { type DropEventActor, requestActor } from '../drops/drop-events.repository';
import { IntakeService, senderFields } from '../submissions/intake.service';
import { AdmittedUploads, slugScope } from './admitted-uploads';
import { FirstBytesStore } from './first-bytes-store';
import { RedisLocker } from './redis-locker';
import { handleTus, speaksOtherTusVersion } from './tus-bridge';
import { dropOwner, OwnedStore, ownedMetadata, refuseReservedMetadata } from './tus-owner';
import { buildTusServer, declaredLength, refuseUnofferedExtensions, sniffStored, SUBMISSION_ID_HEADER, uploadMetadata } from './tus-server';
import { TUS_STORAGE } from './tus-storage.provider';
import type { TusStorage } from './tus-store';

/**
 * tus uploads to a drop (`/v1/public/drops/{slug}/tus[/{id}]`), with the single POST's intake rules
 * at the earliest point: drop open and sender fields and declared size at creation, the sniffed
 * kind on the first bytes, and the submission — counters, webhook, auto-conversion, via
 * IntakeService — once the last byte is stored, after the drop's rules are checked again as they
 * are then. Incomplete bytes never count toward the drop. The upload belongs to the drop of the
 * URL that created it (tus-owner.ts): no other drop, and not `/v1/uploads/tus`, can see it.
 */
@Injectable()
export class DropTusService {
  /** The drop the current tus request is for, read by the hooks tus calls during it. */
  private readonly current = new AsyncLocalStorage<Drop>();
  /** The sender of the current tus request: the PATCH that completes an upload is the submission's actor. */
  private readonly sender = new AsyncLocalStorage<DropEventActor>();
  private readonly server: Server;
  private readonly owned: OwnedStore;

  constructor(
    @Inject(TUS_STORAGE) private readonly tus: TusStorage,
    private readonly intake: IntakeService,
    private readonly drops: DropsService,
    private readonly admitted: AdmittedUploads,
    private readonly limits: RequestLimits,
    locker: RedisLocker,
    config: AppConfig,
  ) {
    this.owned = new OwnedStore(tus.store, () => dropOwner(this.drop().id), {
      created: (id) => this.admitted.admit(id, slugScope(this.drop().slug)),
      removed: (id) => this.admitted.forget(id),
    });
    const store = new FirstBytesStore(this.owned, (upload, sniffed) =>
      this.intake.checkKind(this.drop(), sniffed, (upload.metadata as Record<string, string> | undefined)?.filename),
    );
    this.server = buildTusServer(store, publicBaseUrl(config), locker, {
      namingFunction: () => newId('obj'),
      maxSize: () => this.drop().maxFileSizeMB * MB,
      onUploadCreate: async (_req, upload) => ({ metadata: ownedMetadata(upload.metadata, dropOwner(this.drop().id)) }),
      onUploadFinish: async (_req, upload) => ({ headers: { [SUBMISSION_ID_HEADER]: await this.finish(upload) } }),
    });
  }

  /** POST: refuses a closed drop, bad sender fields or an oversize declared length before tus creates anything. */
  async create(slug: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // A client of another tus version learns that first (412), not what its metadata lacks.
    if (speaksOtherTusVersion(req)) return handleTus(this.server, req, reply);
    refuseUnofferedExtensions(req);
    const drop = await this.intake.openDrop(slug, { password: dropPasswordHeader(req.headers), ip: req.ip });
    const metadata = uploadMetadata(req);
    refuseReservedMetadata(metadata);
    if (!metadata.filename?.trim()) {
      throw DomainError.validation('Upload-Metadata must name the file: filename is required.', [{ path: 'header/Upload-Metadata/filename', message: 'is required' }]);
    }
    this.intake.checkSenderFields(drop, senderFields(metadata));
    checkExtension(drop, metadata.filename);
    const length = declaredLength(req);
    if (length !== undefined && length > drop.maxFileSizeMB * MB) throw this.intake.tooLarge(drop);
    checkRoom(drop, length);
    return this.sender.run(requestActor(req.ip, req.headers['user-agent']), () => this.current.run(drop, () => handleTus(this.server, req, reply)));
  }

  /**
   * The request limit of a HEAD, PATCH or DELETE, before its upload slot is taken: none for an
   * upload this drop's URL admitted and that is still open, the address's (429 `rate_limited`) for
   * any other id. Costs one Redis read, no database or storage read.
   */
  async limitUnadmitted(slug: string, id: string, ip: string): Promise<void> {
    if (!(await this.admitted.has(id, slugScope(slug)))) await this.limits.address(ip);
  }

  /** HEAD, PATCH, DELETE of an upload this drop's URL created; any other upload id is a 404 (OwnedStore). */
  async serve(slug: string, id: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // Bytes go only to a drop that still accepts them; an offset or a cancel works on any existing drop.
    const drop = req.method === 'PATCH' ? await this.intake.openDrop(slug) : await this.drops.findBySlug(slug);
    return this.sender.run(requestActor(req.ip, req.headers['user-agent']), () =>
      this.current.run(drop, async () => {
        await this.owned.refuseForeign(id);
        return handleTus(this.server, req, reply);
      }),
    );
  }

  private drop(): Drop {
    const drop = this.current.getStore();
    if (!drop) throw new Error('tus hook called outside a drop request');
    return drop;
  }

  /**
   * The last byte is stored: the file becomes a submission. Returns its id. The drop (read by the
   * request that completes the upload: active, unexpired) may have changed since the creation, so
   * its size limit, kinds and required sender fields are checked again; a refusal removes the upload.
   */
  private async finish(upload: Upload): Promise<string> {
    const drop = this.drop();
    const metadata = (upload.metadata ?? {}) as Record<string, string>;
    const size = upload.size ?? upload.offset;
    // Finished, whether it becomes a submission or is refused: no more requests continue it.
    await this.admitted.forget(upload.id);
    const sniffed = await sniffStored(this.tus.store, upload.id);
    try {
      if (size > drop.maxFileSizeMB * MB) throw this.intake.tooLarge(drop);
      this.intake.checkSenderFields(drop, senderFields(metadata));
      this.intake.checkKind(drop, sniffed, metadata.filename);
    } catch (err) {
      await this.tus.discard(upload.id).catch(() => undefined);
      throw err;
    }
    await this.tus.adopt(upload.id);
    const submission = await this.intake.createFromStored(
      drop,
      senderFields(metadata),
      metadata.filename ?? 'file',
      {
        storageKey: upload.id,
        size,
        mime: sniffed.mime,
        kind: sniffed.kind,
        ext: sniffed.ext,
      },
      this.sender.getStore(),
    );
    return submission.id;
  }
}
