import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expectError } from '../../support/expect-error';
import { type Answer, MiB, postForm, storedFiles, streamedForm } from '../../support/intake';
import { waitForJob } from '../../support/jobs';
import { makeAudio, makeJpeg, probe } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';
import type { JobAccepted } from '../../../generated/types';

/** POST /v1/uploads (docs/decisions.md §8) and jobs that take their input from an upload (`input.fileId`). */
describe('uploads', () => {
  let t: TestApp;
  let dir: string;
  let tenant: Tenant;
  let jpeg: Buffer;
  let wav: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-uploads-'));
    jpeg = await makeJpeg(400, 300);
    await makeAudio(join(dir, 'tone.wav'), 2);
    wav = await readFile(join(dir, 'tone.wav'));
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ credits: 100 });
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** POST /v1/uploads with a body and headers of our choosing; a cut connection is status null. */
  function post(token: string, init: RequestInit & { duplex?: 'half' }): Promise<Answer> {
    return postForm(`${t.baseUrl}/v1/uploads`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as object) } });
  }

  function fileForm(data: Buffer, name: string, type = 'application/octet-stream'): FormData {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(data)], { type }), name);
    return fd;
  }

  async function upload(data: Buffer, name: string, type?: string, who: Tenant = tenant) {
    const res = await post(who.token, { body: fileForm(data, name, type) });
    expect(res.status).toBe(201);
    return res.body.upload as { id: string; fileName: string; fileSize: number; fileMime: string; fileKind: string; createdAt: string; expiresAt: string };
  }

  it('201: stores the file and describes it from its bytes, kept 24 h', async () => {
    const before = Date.now();
    // The client calls the JPEG text and gives it a path: the bytes and the base name win.
    const res = await post(tenant.token, { body: fileForm(jpeg, '../../photos/holiday.jpg', 'text/plain') });
    expect(res.status).toBe(201);
    expect(res.headers!.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['upload']);
    const u = res.body.upload;
    expect(u).toEqual({
      id: expect.stringMatching(/^upl_[A-Za-z0-9]+$/),
      fileName: 'holiday.jpg',
      fileSize: jpeg.length,
      fileMime: 'image/jpeg',
      fileKind: 'image',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const created = Date.parse(u.createdAt);
    expect(created).toBeGreaterThanOrEqual(before - 2000);
    expect(created).toBeLessThanOrEqual(Date.now() + 2000);
    expect(Math.abs(Date.parse(u.expiresAt) - created - 24 * 3600 * 1000)).toBeLessThan(5000);

    const wavUpload = await upload(wav, 'tone.wav');
    expect(wavUpload).toMatchObject({ fileKind: 'audio', fileMime: expect.stringMatching(/^audio\/(wav|x-wav|vnd\.wave)$/), fileSize: wav.length });
  });

  it('a job with input.fileId runs to completed and its output decodes (image and audio)', async () => {
    const image = await upload(jpeg, 'photo.jpg');
    const audio = await upload(wav, 'tone.wav');
    // Any key of the same account may use the upload.
    const otherKey = await t.newKey(tenant.account.id);
    const a = await otherKey.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId: image.id }, options: { width: 200 } } });
    const b = await tenant.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input: { fileId: audio.id }, options: { bitrate: '96k' } } });
    expect([a.response.status, b.response.status]).toEqual([202, 202]);

    const imageJob = await waitForJob(otherKey.client, (a.data as JobAccepted).id);
    expect(imageJob).toMatchObject({ state: 'completed', progress: 100, result: { outputFormat: 'jpeg', width: 200, height: 150 } });
    const out = Buffer.from(await (await contractFetch(imageJob.result!.downloadUrl!)).arrayBuffer());
    expect(await sharp(out).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 150 });

    const audioJob = await waitForJob(tenant.client, (b.data as JobAccepted).id);
    expect(audioJob).toMatchObject({ state: 'completed', result: { outputFormat: 'mp3', bitrate: '96k' } });
    const mp3 = join(dir, 'out.mp3');
    await writeFile(mp3, Buffer.from(await (await contractFetch(audioJob.result!.downloadUrl!)).arrayBuffer()));
    const info = await probe(mp3);
    expect(info.format).toBe('mp3');
    expect(info.duration).toBeGreaterThan(1.5);
  });

  it('400 validation_failed for a fileId of another account, or one that does not exist', async () => {
    const stranger = await t.newTenant({ credits: 10 });
    const theirs = await upload(jpeg, 'theirs.jpg', undefined, stranger);
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    for (const fileId of [theirs.id, 'upl_doesnotexist000']) {
      const { response, error } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId }, options: { width: 10 } } });
      expectError(response, error, 400, 'validation_failed');
    }
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
  });

  it('400 unsupported_input at once for an upload of another kind than the tool takes: no job, no charge', async () => {
    const audio = await upload(wav, 'tone.wav');
    const image = await upload(jpeg, 'photo.jpg');
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const jobsBefore = (await tenant.client.GET('/v1/jobs')).data!.jobs.length;
    for (const body of [
      { tool: 'image-resize' as const, input: { fileId: audio.id }, options: { width: 10 } },
      { tool: 'audio-compress' as const, input: { fileId: image.id } },
      { tool: 'video-convert' as const, input: { fileId: audio.id } },
    ]) {
      const { response, error } = await tenant.client.POST('/v1/jobs', { body });
      expectError(response, error, 400, 'unsupported_input');
      expect(error!.error.message).toContain(body.input.fileId);
    }
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
    expect((await tenant.client.GET('/v1/jobs')).data!.jobs).toHaveLength(jobsBefore);
  });

  it('403 insufficient_scope without uploads:write, and nothing is stored', async () => {
    const imageOnly = await t.newKey(tenant.account.id, { scopes: ['image:write'] });
    const before = await storedFiles(join(dir, 'files'));
    const res = await post(imageOnly.token, { body: fileForm(jpeg, 'photo.jpg') });
    expectError({ status: res.status! }, res.body, 403, 'insufficient_scope');
    expect(res.body.error.message).toContain('uploads:write');
    expect(await storedFiles(join(dir, 'files'))).toEqual(before);
  });

  describe('413 file_too_large over the plan limit (free: 25 MB), nothing left in STORAGE_DIR', () => {
    let free: Tenant;
    beforeAll(async () => {
      free = await t.newTenant({ plan: 'free', credits: 10 });
    });

    it('a chunked upload of 26 MB is cut off while streaming', async () => {
      const before = await storedFiles(join(dir, 'files'));
      const { body, contentType } = streamedForm({ fileName: 'big.bin', size: 26 * MiB });
      const res = await post(free.token, { body: body as any, duplex: 'half', headers: { 'content-type': contentType } });
      // The server answers without storing the rest, and reads it away (lingering close) so the 413 arrives.
      expectError({ status: res.status! }, res.body, 413, 'file_too_large');
      expect(res.body.error.message).toContain('25 MB');
      expect(await storedFiles(join(dir, 'files'))).toEqual(before);
    });

    it('a declared Content-Length over the limit is refused before reading', async () => {
      const before = await storedFiles(join(dir, 'files'));
      const { body, contentType, totalBytes } = streamedForm({ fileName: 'big.bin', size: 26 * MiB });
      const res = await post(free.token, { body: body as any, duplex: 'half', headers: { 'content-type': contentType, 'content-length': String(totalBytes) } });
      expectError({ status: res.status! }, res.body, 413, 'file_too_large');
      expect(await storedFiles(join(dir, 'files'))).toEqual(before);
    });

    it('just under the limit is accepted on the same plan', async () => {
      const { body, contentType } = streamedForm({ fileName: 'fits.bin', size: 25 * MiB - 1024 });
      const res = await post(free.token, { body: body as any, duplex: 'half', headers: { 'content-type': contentType } });
      expect(res.status).toBe(201);
      expect(res.body.upload).toMatchObject({ fileSize: 25 * MiB - 1024, fileKind: 'document', fileMime: 'application/octet-stream' });
    });
  });

  it('415 for a body that is not multipart', async () => {
    const json = await post(tenant.token, { body: JSON.stringify({ file: 'aGVsbG8=' }), headers: { 'content-type': 'application/json' } });
    expectError({ status: json.status! }, json.body, 415, 'unsupported_media_type');
    const raw = await post(tenant.token, { body: new Uint8Array(jpeg), headers: { 'content-type': 'image/jpeg' } });
    expectError({ status: raw.status! }, raw.body, 415, 'unsupported_media_type');
  });

  it('400 validation_failed for a form without a file part', async () => {
    const fd = new FormData();
    fd.append('note', 'no file here');
    const res = await post(tenant.token, { body: fd });
    expectError({ status: res.status! }, res.body, 400, 'validation_failed');
  });
});
