import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORAGE, type StorageDriver } from '../../../src/storage/storage.driver';
import { TusSweeper } from '../../../src/tus/tus-sweeper';
import { expectError } from '../../support/expect-error';
import { eventually, MiB, ownerSnapshot, png } from '../../support/intake';
import { s3StorageEnv, startS3rver, type S3rverServer } from '../../support/s3rver';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tus, tusCreate, tusPatch } from '../../support/tus';

const BUCKET = 'tus';

/**
 * tus with STORAGE_DRIVER=s3 (@tus/s3-store: S3 multipart uploads, 8 MiB parts, a `.part` object
 * for a tail under S3's 5 MiB minimum) against s3rver on loopback, extended with the multipart
 * listing calls it lacks (test/support/s3rver.ts).
 */
describe('tus uploads on S3', () => {
  let dir: string;
  let server: S3rverServer;
  let env: Record<string, string>;
  let s3: S3Client;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-tus-s3-'));
    const started = await startS3rver(join(dir, 's3'), [BUCKET]);
    server = started.server;
    env = {
      ...s3StorageEnv(started.endpoint, BUCKET),
      SIGNING_SECRET: 'tus-s3-e2e-signing-secret-0123456789',
    };
    s3 = new S3Client({ endpoint: started.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    t = await startTestApp(env);
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    s3?.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('tus-s3');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Big files on S3', slug, maxFileSizeMB: 100, ...body } as any });
    expect(response.status).toBe(201);
    return slug;
  }
  const collection = (app: TestApp, slug: string) => `${app.baseUrl}/v1/public/drops/${slug}/tus`;

  /** What the bucket holds for upload `id`: its objects (`id`, `id.info`, `id.part`) and open multipart uploads. */
  async function inBucket(id: string): Promise<{ objects: string[]; multipart: number }> {
    const objects = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: id }));
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    return { objects: (objects.Contents ?? []).map((o) => o.Key!).sort(), multipart: (uploads.Uploads ?? []).filter((u) => u.Key === id).length };
  }

  /** The numbers of the parts s3rver has stored completely for the open multipart uploads. */
  async function storedParts(): Promise<number[]> {
    const uploads = join(dir, 's3', BUCKET, '._S3rver_uploads');
    const ids = await readdir(uploads).catch(() => [] as string[]);
    const files = (await Promise.all(ids.map((id) => readdir(join(uploads, id))))).flat();
    return files.filter((f) => /^\d+\.md5$/.test(f)).map((f) => Number(f.slice(0, -4)));
  }

  /**
   * A PATCH that declares the whole rest of the file but sends only `sent` bytes, then drops the
   * connection once `until` holds (the server has stored what it could): a network cut mid-upload.
   */
  async function interruptedPatch(url: string, offset: number, rest: Buffer, sent: number, until: () => Promise<boolean>): Promise<void> {
    const req = request(url, {
      method: 'PATCH',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(rest.length) },
    });
    req.on('error', () => undefined); // the cut is ours
    req.write(rest.subarray(0, sent));
    expect(await eventually(until, 30_000, 50)).toBe(true);
    req.destroy();
  }

  it("on S3 too, an upload is served only by the endpoint and the drop or account that created it; the owner is the server's to write", async () => {
    const slug = await createDrop();
    const stranger = await t.newTenant();
    const auth = { Authorization: `Bearer ${stranger.token}` };
    const forged = await tusCreate(collection(t, slug), 100, { filename: 'a.txt', accountId: stranger.account.id });
    expectError(forged, forged.body, 400, 'validation_failed');

    const toDrop = await tusCreate(collection(t, slug), 100, { filename: 'a.txt' });
    const viaKey = `${t.baseUrl}/v1/uploads/tus/${toDrop.location.split('/').pop()}`;
    const patched = await tusPatch(viaKey, 0, Buffer.alloc(100, 'a'), auth);
    expectError(patched, patched.body, 404, 'not_found');
    expect((await tus(viaKey, 'DELETE', auth)).status).toBe(404);

    const toKey = await tusCreate(`${t.baseUrl}/v1/uploads/tus`, 100, { filename: 'b.txt' }, auth);
    const viaDrop = `${collection(t, slug)}/${toKey.location.split('/').pop()}`;
    const sent = await tusPatch(viaDrop, 0, Buffer.alloc(100, 'b'));
    expectError(sent, sent.body, 404, 'not_found');
    expect((await tus(viaDrop, 'HEAD')).status).toBe(404);
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 0, totalBytes: 0 });

    // Each endpoint still serves its own.
    expect((await tus(toDrop.location, 'DELETE')).status).toBe(204);
    expect((await tus(toKey.location, 'DELETE', auth)).status).toBe(204);
  });

  it("on S3, a single-kind drop's tus file takes its sniffed type's extension", async () => {
    const slug = await createDrop({ allowedKinds: 'image' });
    const image = await png(40, 40);
    const created = await tusCreate(collection(t, slug), image.length, { filename: 'invoice.html' });
    const last = await tusPatch(created.location, 0, image);
    const id = last.headers.get('dropline-submission-id')!;
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
    expect(data!.submission).toMatchObject({ fileName: 'invoice.png', fileMime: 'image/png' });
  });

  it('a sender uploads in several PATCHes, is cut off mid-PATCH, resumes from HEAD; one submission, the same bytes, nothing left behind', async () => {
    const slug = await createDrop({ allowedKinds: 'image' });
    const file = Buffer.concat([await png(300, 200), randomBytes(20 * MiB)]);
    const created = await tusCreate(collection(t, slug), file.length, { filename: 'huge.png', senderName: 'Ada' });
    expect(created.status).toBe(201);
    const id = created.location.split('/').pop()!;
    expect(await inBucket(id)).toEqual({ objects: [`${id}.info`], multipart: 1 });

    // 3 MiB is under S3's part minimum: kept as the `.part` object, the offset still says 3 MiB.
    const first = await tusPatch(created.location, 0, file.subarray(0, 3 * MiB));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(3 * MiB));
    expect(await inBucket(id)).toEqual({ objects: [`${id}.info`, `${id}.part`], multipart: 1 });
    // 3 + 6 MiB: one 8 MiB part, and a 1 MiB tail.
    const second = await tusPatch(created.location, 3 * MiB, file.subarray(3 * MiB, 9 * MiB));
    expect(second.status).toBe(204);
    expect(second.headers.get('upload-offset')).toBe(String(9 * MiB));
    expect((await tus(created.location, 'HEAD')).headers.get('upload-offset')).toBe(String(9 * MiB));
    expect(await storedParts()).toEqual([1]);
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 0, totalBytes: 0 });

    // Cut off after 8 more MiB, once the server has stored part 2 (1 MiB tail + 7 MiB).
    await interruptedPatch(created.location, 9 * MiB, file.subarray(9 * MiB), 8 * MiB, async () => (await storedParts()).includes(2));
    const resumed = await eventually(async () => {
      const head = await tus(created.location, 'HEAD');
      return head.status === 200 && Number(head.headers.get('upload-offset')) >= 16 * MiB ? head : null;
    }, 30_000);
    const offset = Number(resumed!.headers.get('upload-offset'));
    expect(offset).toBeLessThan(file.length);

    const last = await tusPatch(created.location, offset, file.subarray(offset));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(file.length));
    const submissionId = last.headers.get('dropline-submission-id');
    expect(submissionId).toMatch(/^sub_/);

    expect(await ownerSnapshot(owner, slug)).toEqual({ submissionCount: 1, totalBytes: file.length, ids: [submissionId] });
    const { data: sub } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: submissionId! } } });
    expect(sub!.submission).toMatchObject({ fileName: 'huge.png', fileSize: file.length, fileKind: 'image', fileMime: 'image/png', senderName: 'Ada' });
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submissionId! } } });
    expect(link!.url).toContain(`/${BUCKET}/`);
    const downloaded = Buffer.from(await (await fetch(link!.url)).arrayBuffer());
    expect(downloaded.length).toBe(file.length);
    expect(downloaded.equals(file)).toBe(true);

    // The completed multipart upload is the stored object; the tus bookkeeping is gone.
    expect(await inBucket(id)).toEqual({ objects: [id], multipart: 0 });
    expect((await tus(created.location, 'HEAD')).status).toBe(404);
    expect((await tusPatch(created.location, file.length - 10, file.subarray(file.length - 10))).status).toBe(404);
    expect((await ownerSnapshot(owner, slug)).submissionCount).toBe(1);
  }, 120_000);

  it('a finished upload is gone for every API process, also one that served its earlier PATCHes', async () => {
    const other = await startTestApp(env);
    try {
      const slug = await createDrop();
      const file = randomBytes(2 * MiB + 5);
      const created = await tusCreate(collection(t, slug), file.length, { filename: 'data.bin' });
      const onOther = created.location.replace(t.baseUrl, other.baseUrl);
      expect((await tusPatch(onOther, 0, file.subarray(0, MiB))).status).toBe(204);
      expect((await tus(onOther, 'HEAD')).headers.get('upload-offset')).toBe(String(MiB));
      const last = await tusPatch(created.location, MiB, file.subarray(MiB));
      expect(last.headers.get('dropline-submission-id')).toMatch(/^sub_/);

      const head = await tus(onOther, 'HEAD');
      expect(head.status).toBe(404);
      const again = await tusPatch(onOther, MiB, file.subarray(MiB));
      expect(again.status).toBe(404);
      expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 1, totalBytes: file.length });
    } finally {
      await other.close();
    }
  }, 60_000);

  it('POST /v1/uploads/tus stores the upl_ file in the bucket in PATCH chunks; it is a job input', async () => {
    const auth = { Authorization: `Bearer ${owner.token}` };
    const image = Buffer.concat([await png(640, 480), randomBytes(6 * MiB)]);
    const created = await tusCreate(`${t.baseUrl}/v1/uploads/tus`, image.length, { filename: 'input.png' }, auth);
    expect(created.status).toBe(201);
    const id = created.location.split('/').pop()!;
    expect(id).toMatch(/^upl_/);
    const cut = 4 * MiB;
    expect((await tusPatch(created.location, 0, image.subarray(0, cut), auth)).status).toBe(204);
    expect((await tus(created.location, 'HEAD', auth)).headers.get('upload-offset')).toBe(String(cut));
    expect((await tusPatch(created.location, cut, image.subarray(cut), auth)).status).toBe(204);

    const stored = await t.app.get<StorageDriver>(STORAGE).read(id);
    const chunks: Buffer[] = [];
    for await (const c of stored) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(image)).toBe(true);
    expect(await inBucket(id)).toEqual({ objects: [id], multipart: 0 });

    const job = await owner.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { fileId: id }, options: { width: 100 } },
      headers: { 'Idempotency-Key': `tus-s3-${id}` },
    } as any);
    expect(job.response.status).toBe(202);
  }, 60_000);

  it('DELETE and a refused kind remove the multipart upload and every object of the upload', async () => {
    const slug = await createDrop({ allowedKinds: 'image' });
    const cancelled = await tusCreate(collection(t, slug), 7 * MiB, { filename: 'photo.png' });
    const cancelledId = cancelled.location.split('/').pop()!;
    const image = Buffer.concat([await png(50, 50), randomBytes(6 * MiB)]);
    expect((await tusPatch(cancelled.location, 0, image)).status).toBe(204);
    expect((await inBucket(cancelledId)).multipart).toBe(1);
    expect((await tus(cancelled.location, 'DELETE')).status).toBe(204);
    expect(await inBucket(cancelledId)).toEqual({ objects: [], multipart: 0 });
    expect((await tus(cancelled.location, 'HEAD')).status).toBe(404);

    const refused = await tusCreate(collection(t, slug), 5000, { filename: 'photo.png' });
    const refusedId = refused.location.split('/').pop()!;
    const answer = await tusPatch(refused.location, 0, Buffer.alloc(2000, 'plain text, not an image. '));
    expectError(answer, answer.body, 415, 'kind_not_allowed');
    expect(await inBucket(refusedId)).toEqual({ objects: [], multipart: 0 });
  }, 60_000);

  it('an upload refused at its final kind check (the drop changed meanwhile) leaves no object in the bucket', async () => {
    const slug = await createDrop();
    const text = Buffer.alloc(3000, 'plain text, not an image. ');
    const created = await tusCreate(collection(t, slug), text.length, { filename: 'notes.txt' });
    const id = created.location.split('/').pop()!;
    expect((await tusPatch(created.location, 0, text.subarray(0, 1000))).status).toBe(204);
    await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: { allowedKinds: 'image' } });
    const answer = await tusPatch(created.location, 1000, text.subarray(1000));
    expectError(answer, answer.body, 415, 'kind_not_allowed');
    expect(await inBucket(id)).toEqual({ objects: [], multipart: 0 });
  }, 60_000);

  it('an incomplete upload expires and the sweeper removes its multipart upload and objects from the bucket', async () => {
    // Long enough for the 9 MiB PATCH below to finish on a loaded machine (1 s was not: 410 in CI).
    const short = await startTestApp({ ...env, TUS_EXPIRY_SECONDS: '8' });
    try {
      const slug = await createDrop();
      const file = randomBytes(12 * MiB);
      const created = await tusCreate(collection(short, slug), file.length, { filename: 'later.bin' });
      // One 8 MiB part and a 1 MiB `.part` tail.
      expect((await tusPatch(created.location, 0, file.subarray(0, 9 * MiB))).status).toBe(204);
      const id = created.location.split('/').pop()!;
      expect(await inBucket(id)).toEqual({ objects: [`${id}.info`, `${id}.part`], multipart: 1 });

      const sweeper = short.app.get(TusSweeper);
      const swept = await eventually(
        async () => {
          await sweeper.sweep();
          const left = await inBucket(id);
          return left.objects.length === 0 && left.multipart === 0;
        },
        60_000,
        200,
      );
      expect(swept).toBe(true);
      expect(await storedParts()).toEqual([]);
      expect((await tus(created.location, 'HEAD')).status).toBe(404);
    } finally {
      await short.close();
    }
  }, 120_000);
});
