import { DataStore, Upload } from '@tus/utils';
import type { Readable } from 'node:stream';
import { DomainError } from '../common/domain-error';
import { tusError } from './tus-bridge';

/**
 * Who an upload belongs to, written into its tus record by the endpoint that created it — from the
 * URL's drop or the key's account, never from the request's headers: `drop:<drop id>` for
 * `/v1/public/drops/{slug}/tus`, `account:<account id>` for `/v1/uploads/tus`. Both endpoints share
 * one store, so the prefix also says which endpoint may serve the upload.
 */
export type TusOwner = `drop:${string}` | `account:${string}`;

export const dropOwner = (dropId: string): TusOwner => `drop:${dropId}`;
export const accountOwner = (accountId: string): TusOwner => `account:${accountId}`;

/** The metadata key of the owner. */
const OWNER_KEY = 'owner';

/**
 * `Upload-Metadata` keys the server keeps for itself: the owner, and the keys older versions read
 * as the owner (`accountId`, `dropId`). A client that sends one is refused, not silently overridden.
 */
const RESERVED_KEYS = [OWNER_KEY, 'accountId', 'dropId'];

/** 400 `validation_failed` when the client's metadata names a reserved key (with or without a value). */
export function refuseReservedMetadata(metadata: Record<string, unknown> | undefined | null): void {
  const reserved = Object.keys(metadata ?? {}).filter((key) => RESERVED_KEYS.includes(key));
  if (reserved.length > 0) {
    throw DomainError.validation(
      `Upload-Metadata may not carry ${reserved.join(' or ')}: the server records who owns an upload.`,
      reserved.map((key) => ({ path: `header/Upload-Metadata/${key}`, message: 'is reserved' })),
    );
  }
}

/** The metadata to record at creation: the client's own keys and the owner. */
export function ownedMetadata(metadata: Upload['metadata'], owner: TusOwner): NonNullable<Upload['metadata']> {
  refuseReservedMetadata(metadata);
  return { ...metadata, [OWNER_KEY]: owner };
}

/**
 * The upload as its client knows it: HEAD echoes `metadata` as `Upload-Metadata`, and the owner is
 * the server's (it would show the internal drop or account id). A copy: the store may cache the
 * record it returned, and the owner must stay in it.
 */
function withoutOwner(upload: Upload): Upload {
  const { [OWNER_KEY]: _owner, ...client } = upload.metadata ?? {};
  return new Upload({ ...upload, metadata: Object.keys(client).length > 0 ? client : undefined });
}

/**
 * A tus DataStore that shows an endpoint only the uploads it created for the request's drop or
 * account: every HEAD, PATCH and DELETE starts with `getUpload` (DELETE then `remove`), and an
 * upload whose recorded owner differs — another drop, another account, the other endpoint, or a
 * record without an owner — is 404 `not_found`, as if it did not exist.
 */
export class OwnedStore extends DataStore {
  constructor(
    private readonly inner: DataStore,
    private readonly owner: () => TusOwner,
    /** Told when an upload is created and when it is removed (AdmittedUploads). */
    private readonly lifecycle?: { created(id: string): Promise<void>; removed(id: string): Promise<void> },
  ) {
    super();
    this.extensions = inner.extensions;
  }

  override async getUpload(id: string): Promise<Upload> {
    const upload = await this.inner.getUpload(id);
    // @tus/server answers a store's `{status_code, body}` rejection as is (the JSON envelope).
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (upload.metadata?.[OWNER_KEY] !== this.owner()) throw tusError(DomainError.notFound('Upload'));
    return withoutOwner(upload);
  }

  /**
   * 404 `not_found` before @tus/server runs when `id` names an existing upload of another owner.
   * tus takes the upload lock before it reads the upload (and our owner), and the shared lock asks
   * its holder to let go: without this check a stranger who learned an id could interrupt the
   * owner's PATCH. An unknown id is left to tus (its own 404).
   */
  async refuseForeign(id: string): Promise<void> {
    let upload: Upload;
    try {
      upload = await this.inner.getUpload(id);
    } catch {
      return;
    }
    if (upload.metadata?.[OWNER_KEY] !== this.owner()) throw DomainError.notFound('Upload');
  }

  override async remove(id: string): Promise<void> {
    await this.getUpload(id);
    await this.inner.remove(id);
    await this.lifecycle?.removed(id);
  }

  override write(stream: Readable, id: string, offset: number): Promise<number> {
    return this.inner.write(stream, id, offset);
  }
  override async create(upload: Upload): Promise<Upload> {
    const created = await this.inner.create(upload);
    await this.lifecycle?.created(upload.id);
    return created;
  }
  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.inner.declareUploadLength(id, length);
  }
  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }
  override getExpiration(): number {
    return this.inner.getExpiration();
  }
}
