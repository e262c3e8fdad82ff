import { Logger } from '@nestjs/common';
import { Server, type ServerOptions } from '@tus/server';
import { type DataStore, type Locker, Metadata, type Upload } from '@tus/utils';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DomainError } from '../common/domain-error';
import { type SniffedStream, sniff } from '../common/file-sniffer';
import { asTusError } from './tus-bridge';

const logger = new Logger('Tus');

/** The headers tus clients must be able to read, plus ours. */
export const SUBMISSION_ID_HEADER = 'Dropline-Submission-Id';

/**
 * One @tus/server for a family of URLs `<collection>/{id}` whose collection path varies (a drop's
 * slug). Locations are absolute, built from PUBLIC_BASE_URL and the creating request's path; the
 * upload id is the URL's last segment. Hook errors are {@link DomainError}s sent as the JSON envelope.
 */
export function buildTusServer(
  datastore: DataStore,
  baseUrl: string,
  locker: Locker,
  options: Pick<ServerOptions, 'namingFunction' | 'onUploadCreate' | 'onUploadFinish' | 'maxSize'>,
): Server {
  const server = new Server({
    path: '/', // unused: generateUrl and getFileIdFromRequest below read the real path
    datastore,
    // Shared by every API process (redis-locker.ts): a PATCH on one and a PATCH on another never both write.
    locker,
    generateUrl: (req, { id }) => `${baseUrl}${new URL(req.url).pathname.replace(/\/+$/, '')}/${id}`,
    getFileIdFromRequest: (req) => /\/tus\/([A-Za-z0-9_-]{1,100})$/.exec(new URL(req.url).pathname)?.[1],
    exposedHeaders: [SUBMISSION_ID_HEADER],
    disableTerminationForFinishedUploads: true,
    // tus answers a store failure with a 500 and keeps the cause to itself: log it here.
    onResponseError: (_req, err) => {
      const status = 'status_code' in err ? err.status_code : 500;
      if (status >= 500) logger.error(`tus request failed: ${err instanceof Error ? (err.stack ?? err.message) : JSON.stringify(err)}`);
      return undefined;
    },
    ...wrapHooks(options),
  });
  return server;
}

function wrapHooks(options: Pick<ServerOptions, 'namingFunction' | 'onUploadCreate' | 'onUploadFinish' | 'maxSize'>) {
  const asTus = asTusError;
  // @tus/server expects its own `{status_code, body}` shape as the rejection reason, not an Error.
  /* eslint-disable @typescript-eslint/prefer-promise-reject-errors */
  return {
    ...options,
    onUploadCreate:
      options.onUploadCreate &&
      ((req: Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0], upload: Upload) => options.onUploadCreate!(req, upload).catch((e) => Promise.reject(asTus(e)))),
    onUploadFinish:
      options.onUploadFinish &&
      ((req: Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0], upload: Upload) => options.onUploadFinish!(req, upload).catch((e) => Promise.reject(asTus(e)))),
  };
  /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
}

/** What `Tus-Extension` lists (tus-options.ts); anything else a creation asks for is refused here. */
const OFFERED = 'creation, creation-with-upload, termination, expiration';

/**
 * 400 `tus_extension_unsupported` for a creation that asks for an extension we do not offer
 * (`Upload-Concat`: concatenation). Left to @tus/server it is a 501, logged as a server error.
 */
export function refuseUnofferedExtensions(req: FastifyRequest): void {
  if (req.headers['upload-concat'] !== undefined) {
    throw new DomainError(
      'tus_extension_unsupported',
      `This server does not offer the tus concatenation extension (Upload-Concat); send each file as one upload. Supported: ${OFFERED}.`,
    );
  }
}

/** The decoded `Upload-Metadata` header; a malformed one is left to tus (400). */
export function uploadMetadata(req: FastifyRequest): Record<string, string> {
  const header = req.headers['upload-metadata'];
  if (typeof header !== 'string' || header === '') return {};
  try {
    const parsed = Metadata.parse(header);
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * The declared total size at creation. Deferred lengths (creation-defer-length) are refused: the
 * size rules must be judged before a byte is stored.
 */
export function declaredLength(req: FastifyRequest): number | undefined {
  const header = req.headers['upload-length'];
  if (header === undefined && req.headers['upload-defer-length'] !== undefined) {
    throw DomainError.validation('Send Upload-Length: uploads of unknown length are not accepted.', [{ path: 'header/Upload-Length', message: 'is required' }]);
  }
  const n = Number(header);
  return typeof header === 'string' && /^\d{1,16}$/.test(header) ? n : undefined;
}

/** The type of a finished upload, sniffed again from its stored first bytes. */
export async function sniffStored(store: DataStore, id: string): Promise<SniffedStream> {
  const stream = await (store as unknown as { read(id: string): Promise<Readable> | Readable }).read(id);
  try {
    return await sniff(stream);
  } finally {
    stream.destroy();
  }
}
