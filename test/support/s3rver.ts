import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * s3rver (an S3 look-alike on loopback, files in a directory) for tests, extended with the three
 * multipart calls it lacks and @tus/s3-store needs: ListParts, ListMultipartUploads and
 * AbortMultipartUpload (s3rver 3.7.1 answers them 405/501). TEST-ONLY support code: the routes
 * read and remove what s3rver itself stores for a multipart upload
 * (`<bucket>/._S3rver_uploads/<uploadId>/{key, metadata, <part>, <part>.md5}`), nothing more.
 */
export interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
}
interface S3rverInternals extends S3rverServer {
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver: new (options: Record<string, unknown>) => S3rverInternals = require('s3rver');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3Error: new (code: string, message: string) => Error = require('s3rver/lib/models/error');

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** The settings that point the app's STORAGE_DRIVER=s3 at `bucket` of an s3rver (which accepts any key pair). */
export function s3StorageEnv(endpoint: string, bucket: string): Record<string, string> {
  return { STORAGE_DRIVER: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
}

/** Starts s3rver on 127.0.0.1 (a free port) with the given buckets and the multipart routes. */
export async function startS3rver(directory: string, buckets: string[]): Promise<{ server: S3rverServer; endpoint: string }> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
  const uploads = (bucket: string) => server.store.getResourcePath(bucket, undefined, 'uploads');
  // Before s3rver's router (the last middleware), after its XML encoder of object bodies.
  server.middleware.splice(server.middleware.length - 1, 0, async (ctx, next) => {
    const [bucket, ...rest] = ctx.path.slice(1).split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (ctx.method === 'GET' && key && ctx.query.uploadId !== undefined) return listParts(ctx, uploads(bucket), bucket, key);
    if (ctx.method === 'DELETE' && key && ctx.query.uploadId !== undefined) return abort(ctx, uploads(bucket), key);
    if (ctx.method === 'GET' && bucket && !key && ctx.query.uploads !== undefined) return listUploads(ctx, uploads(bucket), bucket);
    return next();
  });
  const { port } = await server.run();
  return { server, endpoint: `http://127.0.0.1:${port}` };
}

/** The directory of upload `uploadId` of `key`, or NoSuchUpload. */
async function uploadDir(root: string, uploadId: string | undefined, key: string): Promise<string> {
  const dir = join(root, uploadId ?? '');
  const stored = uploadId && /^[0-9a-f]+$/.test(uploadId) ? await readFile(join(dir, 'key'), 'utf8').catch(() => undefined) : undefined;
  if (stored !== key) throw new S3Error('NoSuchUpload', 'The specified upload does not exist.');
  return dir;
}

async function listParts(ctx: KoaContext, root: string, bucket: string, key: string): Promise<void> {
  const dir = await uploadDir(root, ctx.query.uploadId, key);
  const marker = Number(ctx.query['part-number-marker'] ?? 0);
  const max = Number(ctx.query['max-parts'] ?? 1000);
  // A part counts once its .md5 is written, i.e. once s3rver has stored all of it.
  const numbers = (await readdir(dir))
    .filter((f) => /^\d+\.md5$/.test(f))
    .map((f) => Number(f.slice(0, -4)))
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, max);
  const parts = await Promise.all(
    page.map(async (n) => {
      const [info, md5] = await Promise.all([stat(join(dir, String(n))), readFile(join(dir, `${n}.md5`), 'utf8')]);
      return { PartNumber: n, LastModified: info.mtime.toISOString(), ETag: JSON.stringify(md5), Size: info.size };
    }),
  );
  const truncated = numbers.length > page.length;
  ctx.body = {
    ListPartsResult: {
      '@': { xmlns: XMLNS },
      Bucket: bucket,
      Key: key,
      UploadId: ctx.query.uploadId,
      PartNumberMarker: marker,
      ...(truncated ? { NextPartNumberMarker: page[page.length - 1] } : {}),
      MaxParts: max,
      IsTruncated: truncated,
      Part: parts,
    },
  };
}

async function listUploads(ctx: KoaContext, root: string, bucket: string): Promise<void> {
  const ids = await readdir(root).catch(() => [] as string[]);
  const all = (
    await Promise.all(
      ids.map(async (id) => {
        const keyFile = join(root, id, 'key');
        const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]).catch(() => [undefined, undefined] as const);
        return key === undefined ? undefined : { Key: key, UploadId: id, Initiated: info.mtime.toISOString() };
      }),
    )
  )
    .filter((u) => u !== undefined)
    .filter((u) => !ctx.query.prefix || u.Key.startsWith(ctx.query.prefix))
    .sort((a, b) => (a.Key === b.Key ? a.UploadId.localeCompare(b.UploadId) : a.Key.localeCompare(b.Key)));
  const keyMarker = ctx.query['key-marker'] ?? '';
  const idMarker = ctx.query['upload-id-marker'] ?? '';
  const after = all.filter((u) => u.Key > keyMarker || (u.Key === keyMarker && idMarker !== '' && u.UploadId > idMarker));
  const max = Number(ctx.query['max-uploads'] ?? 1000);
  const page = after.slice(0, max);
  const truncated = after.length > page.length;
  const last = page[page.length - 1];
  ctx.body = {
    ListMultipartUploadsResult: {
      '@': { xmlns: XMLNS },
      Bucket: bucket,
      KeyMarker: keyMarker,
      UploadIdMarker: idMarker,
      ...(truncated ? { NextKeyMarker: last.Key, NextUploadIdMarker: last.UploadId } : {}),
      MaxUploads: max,
      IsTruncated: truncated,
      Upload: page,
    },
  };
}

async function abort(ctx: KoaContext, root: string, key: string): Promise<void> {
  const dir = await uploadDir(root, ctx.query.uploadId, key);
  await rm(dir, { recursive: true, force: true });
  ctx.body = null;
  ctx.status = 204;
}
