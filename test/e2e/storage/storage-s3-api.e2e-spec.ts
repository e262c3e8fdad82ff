import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { S3StorageDriver } from '../../../src/storage/s3-storage.driver';
import { STORAGE } from '../../../src/storage/storage.driver';
import { postForm, storedFiles } from '../../support/intake';
import { waitForJob } from '../../support/jobs';
import { makeAudio, makeJpeg, makePng, probe } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { s3StorageEnv, startS3rver, type S3rverServer } from '../../support/s3rver';
import type { JobAccepted } from '../../../generated/types';

/**
 * STORAGE_DRIVER=s3 end to end through the API, against s3rver on loopback with the worker in
 * process: public intake (original and processed output), uploads used as job inputs, the jobs'
 * outputs, and every download through a presigned URL to the bucket. STORAGE_DIR stays empty.
 */
describe('STORAGE_DRIVER=s3 through the API', () => {
  let dir: string;
  let localDir: string;
  let server: S3rverServer;
  let s3Origin: string;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-s3-api-'));
    localDir = join(dir, 'local');
    ({ server, endpoint: s3Origin } = await startS3rver(join(dir, 's3'), ['api']));
    t = await startTestApp({
      ...s3StorageEnv(s3Origin, 'api'),
      SIGNING_SECRET: 'e2e-signing-secret-0123456789abcdef',
      STORAGE_DIR: localDir,
      WORKER_IN_PROCESS: 'true',
    });
    expect(t.app.get(STORAGE)).toBeInstanceOf(S3StorageDriver);
    owner = await t.newTenant({ plan: 'pro', credits: 100 });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A presigned URL must point into the bucket, not at the app; its bytes come from s3rver. */
  async function fetchPresigned(url: string): Promise<Buffer> {
    expect(url.startsWith(`${s3Origin}/api/`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Files written to local disk (a driver that silently fell back to STORAGE_DIR would show here). */
  const localFiles = () => storedFiles(localDir).catch(() => [] as string[]);

  it('public intake: the original and the WebP conversion are stored in the bucket and downloaded from it', async () => {
    const slug = uniqueSlug('s3');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'S3 photos', slug, allowedKinds: 'image', autoConvertTo: 'webp' } })).response.status).toBe(201);
    const png = await makePng(120, 80);
    const fd = new FormData();
    fd.append('senderName', 'Ada');
    fd.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'shot.png');
    const sent = await postForm(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { body: fd });
    expect(sent.status).toBe(201);
    const id = sent.body.submission.id as string;

    const deadline = Date.now() + 120_000;
    let submission;
    for (;;) {
      submission = (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).data!.submission;
      if (submission.status !== 'processing' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(submission).toMatchObject({ status: 'ready', fileSize: png.length, processedFileName: 'shot.webp' });

    const original = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
    expect((await fetchPresigned(original.data!.url)).equals(png)).toBe(true);
    const processed = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id }, query: { processed: true } } });
    expect(processed.data).toMatchObject({ file: 'processed' });
    expect(await sharp(await fetchPresigned(processed.data!.url)).metadata()).toMatchObject({ format: 'webp', width: 120, height: 80 });
    expect(await localFiles()).toEqual([]);
  }, 180_000);

  it('uploads used as job inputs (image and audio): inputs read from and outputs written to the bucket', async () => {
    const jpeg = await makeJpeg(400, 300);
    await makeAudio(join(dir, 'tone.wav'), 2);
    const wav = await readFile(join(dir, 'tone.wav'));
    const upload = async (data: Buffer, name: string, type: string) => {
      const fd = new FormData();
      fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
      const res = await postForm(`${t.baseUrl}/v1/uploads`, { body: fd, headers: { authorization: `Bearer ${owner.token}` } });
      expect(res.status).toBe(201);
      expect(res.body.upload).toMatchObject({ fileName: name, fileSize: data.length });
      return res.body.upload.id as string;
    };
    const imageId = await upload(jpeg, 'photo.jpg', 'image/jpeg');
    const audioId = await upload(wav, 'tone.wav', 'audio/wav');

    const a = await owner.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId: imageId }, options: { width: 200 } } });
    const b = await owner.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input: { fileId: audioId }, options: { bitrate: '96k' } } });
    expect([a.response.status, b.response.status]).toEqual([202, 202]);

    const imageJob = await waitForJob(owner.client, (a.data as JobAccepted).id, 120_000);
    expect(imageJob).toMatchObject({ state: 'completed', result: { outputFormat: 'jpeg', width: 200, height: 150 } });
    const resized = await fetchPresigned(imageJob.result!.downloadUrl!);
    expect(resized.length).toBe(imageJob.result!.outputSize);
    expect(await sharp(resized).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 150 });

    const audioJob = await waitForJob(owner.client, (b.data as JobAccepted).id, 120_000);
    expect(audioJob).toMatchObject({ state: 'completed', result: { outputFormat: 'mp3', bitrate: '96k' } });
    const mp3 = join(dir, 'out.mp3');
    await writeFile(mp3, await fetchPresigned(audioJob.result!.downloadUrl!));
    const info = await probe(mp3);
    expect(info.format).toBe('mp3');
    expect(info.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'mp3' });
    expect(info.duration).toBeGreaterThan(1.5);

    // The job (polled afresh) hands out a new presigned URL for the same object.
    const again = (await owner.client.GET('/v1/jobs/{id}', { params: { path: { id: imageJob.id } } })).data!.job;
    expect((await fetchPresigned(again.result!.downloadUrl!)).equals(resized)).toBe(true);
    expect(await localFiles()).toEqual([]);
  }, 180_000);
});
