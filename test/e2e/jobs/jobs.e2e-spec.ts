import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { DroplineClient } from '../../../generated/client';
import type { Job, JobAccepted } from '../../../generated/types';
import { expectError } from '../../support/expect-error';
import { makeAudio, makeJpeg, makePng, makeVideo, probe, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

/** The four tools end to end: submit over HTTP, a worker runs them, the output is decoded. */
describe('media jobs', () => {
  let t: TestApp;
  let tenant: Tenant;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-jobs-'));
    await makeVideo(join(dir, 'clip.mp4'));
    await makeAudio(join(dir, 'tone.wav'));
    files = await serveFiles({
      'photo.jpg': await makeJpeg(1200, 900),
      'icon.png': await makePng(),
      'clip.mp4': await readFile(join(dir, 'clip.mp4')),
      'tone.wav': await readFile(join(dir, 'tone.wav')),
      'notes.txt': Buffer.from('this is not media\n'.repeat(100)),
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ plan: 'max', credits: 1000 });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  async function waitForJob(client: DroplineClient, id: string, timeoutMs = 60_000): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { data } = await client.GET('/v1/jobs/{id}', { params: { path: { id } } });
      const job = data!.job;
      if (['completed', 'failed', 'canceled'].includes(job.state)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function runJob(body: Record<string, unknown>): Promise<{ job: Job; output: Buffer }> {
    const { response, data } = await tenant.client.POST('/v1/jobs', { body: body as any });
    expect(response.status).toBe(202);
    expect(data).toEqual({ id: expect.stringMatching(/^job_/), state: 'queued', statusUrl: `/v1/jobs/${(data as JobAccepted).id}` });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job).toMatchObject({ state: 'completed', progress: 100, error: null });
    const output = Buffer.from(await (await contractFetch(job.result!.downloadUrl!)).arrayBuffer());
    expect(output.length).toBe(job.result!.outputSize);
    return { job, output };
  }

  it('image-resize: 1200×900 JPEG → 720 px wide JPEG, aspect kept', async () => {
    const { job, output } = await runJob({ tool: 'image-resize', input: { url: files.url('photo.jpg') }, options: { width: 720 } });
    const meta = await sharp(output).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 720, height: 540 });
    expect(job).toMatchObject({ tool: 'image-resize', queue: 'image-standard-queue', cost: 1 });
    expect(job.result).toMatchObject({ status: 'converted', outputFormat: 'jpeg', width: 720, height: 540, message: expect.any(String) });
    expect(job.startedAt).not.toBeNull();
    expect(new Date(job.finishedAt!).getTime()).toBeGreaterThanOrEqual(new Date(job.startedAt!).getTime());
  });

  it('image-convert: PNG → WebP at quality 60', async () => {
    const { output } = await runJob({ tool: 'image-convert', input: { url: files.url('icon.png') }, options: { format: 'webp', quality: 60 } });
    expect(await sharp(output).metadata()).toMatchObject({ format: 'webp', width: 64, height: 48 });
  });

  it('video-convert: MP4 → WebM, real progress, decodable', async () => {
    const { job, output } = await runJob({ tool: 'video-convert', input: { url: files.url('clip.mp4') }, options: { format: 'webm', quality: 'low' } });
    await writeFile(join(dir, 'out.webm'), output);
    const info = await probe(join(dir, 'out.webm'));
    expect(info.format).toContain('webm');
    expect(info.duration).toBeGreaterThan(1.5);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 160, height: 120 });
    expect(job).toMatchObject({ queue: 'video-standard-queue', cost: 5 });
  });

  it('audio-compress: WAV → 64 kbit/s MP3, no message', async () => {
    const { job, output } = await runJob({ tool: 'audio-compress', input: { url: files.url('tone.wav') }, options: { bitrate: '64k' } });
    await writeFile(join(dir, 'out.mp3'), output);
    const info = await probe(join(dir, 'out.mp3'));
    expect(info.format).toBe('mp3');
    expect(info.streams[0]).toMatchObject({ codec_name: 'mp3' });
    expect(Math.round(Number(info.streams[0].bit_rate) / 1000)).toBe(64);
    expect(info.duration).toBeGreaterThan(2.5);
    expect(job.result).not.toHaveProperty('message');
    expect(job).toMatchObject({ queue: 'audio-standard-queue', cost: 2 });
  });

  it('serves the same jobs under /api/v1', async () => {
    const { data } = await tenant.client.POST('/api/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 10 } } });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    const viaApi = await tenant.client.GET('/api/v1/jobs/{id}', { params: { path: { id: job.id } } });
    expect(viaApi.data!.job.id).toBe(job.id);
  });

  it('a file that is not media fails with unsupported_input, and the credits come back', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('notes.txt') }, options: { width: 10 } } });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job).toMatchObject({ state: 'failed', result: null, error: { code: 'unsupported_input', message: expect.any(String) } });
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
  });

  it('a missing input URL fails with input_fetch_failed', async () => {
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('missing.jpg') }, options: { width: 10 } } });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job.error).toMatchObject({ code: 'input_fetch_failed' });
  });

  describe('request errors', () => {
    const post = (body: unknown, client = tenant.client) => client.POST('/v1/jobs', { body: body as any });

    it('400 unknown_tool', async () => {
      const { response, error } = await post({ tool: 'pdf-merge', input: { url: files.url('icon.png') } });
      expectError(response, error, 400, 'unknown_tool');
    });

    it('400 missing_input', async () => {
      const { response, error } = await post({ tool: 'image-resize', options: { width: 5 } });
      expectError(response, error, 400, 'missing_input');
    });

    it.each([
      ['width 0', { width: 0 }],
      ['width not an integer', { width: 'wide' }],
      ['width as a CSS length', { width: '320px' }],
      ['neither width nor height', { maintainAspectRatio: true }],
    ])('400 validation_failed for image-resize %s', async (_l, options) => {
      const { response, error } = await post({ tool: 'image-resize', input: { url: files.url('icon.png') }, options });
      expectError(response, error, 400, 'validation_failed');
      expect(error!.error.details!.every((d) => d.path.startsWith('body/options'))).toBe(true);
    });

    it('400 validation_failed for audio-compress bitrate 999k, ignores unknown option keys', async () => {
      const bad = await post({ tool: 'audio-compress', input: { url: files.url('tone.wav') }, options: { bitrate: '999k' } });
      expectError(bad.response, bad.error, 400, 'validation_failed');
      const ok = await post({ tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 5, sharpen: 'lots' } });
      expect(ok.response.status).toBe(202);
      await waitForJob(tenant.client, (ok.data as JobAccepted).id);
    });

    it('403 insufficient_scope per tool', async () => {
      const imageOnly = await t.newKey(tenant.account.id, { scopes: ['image:write'] });
      const { response, error } = await post({ tool: 'video-convert', input: { url: files.url('clip.mp4') } }, imageOnly.client);
      expectError(response, error, 403, 'insufficient_scope');
      expect(error!.error.message).toContain('video:write');
    });

    it("404 for another key's job, even of the same account", async () => {
      const { data } = await post({ tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 5 } });
      const other = await t.newKey(tenant.account.id);
      const res = await other.client.GET('/v1/jobs/{id}', { params: { path: { id: (data as JobAccepted).id } } });
      expectError(res.response, res.error, 404, 'not_found');
      await waitForJob(tenant.client, (data as JobAccepted).id);
    });

    it('409 cannot_cancel once finished', async () => {
      const { data } = await post({ tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 5 } });
      await waitForJob(tenant.client, (data as JobAccepted).id);
      const res = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (data as JobAccepted).id } } });
      expectError(res.response, res.error, 409, 'cannot_cancel');
    });
  });

  it("lists this key's jobs newest first, filtered by state and tool", async () => {
    // Its own jobs (it runs alone with -t, and in any order): one completed resize, one failed convert.
    const { job: resized } = await runJob({ tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 8 } });
    const failed = (await tenant.client.POST('/v1/jobs', { body: { tool: 'image-convert', input: { url: files.url('notes.txt') }, options: { format: 'png' } } as any }))
      .data as JobAccepted;
    expect((await waitForJob(tenant.client, failed.id)).state).toBe('failed');
    const { data } = await tenant.client.GET('/v1/jobs', { params: { query: { tool: 'image-resize', state: 'completed' } } });
    expect(data!.jobs.map((j) => j.id)).toContain(resized.id);
    expect(data!.jobs.every((j) => j.tool === 'image-resize' && j.state === 'completed')).toBe(true);
    const failedOnly = (await tenant.client.GET('/v1/jobs', { params: { query: { state: 'failed' } } })).data!.jobs;
    expect(failedOnly.map((j) => j.id)).toContain(failed.id);
    expect(failedOnly.map((j) => j.id)).not.toContain(resized.id);
    const all = (await tenant.client.GET('/v1/jobs', { params: { query: { limit: 100 } } })).data!.jobs;
    const times = all.map((j) => j.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('GET /v1/tools describes every tool', async () => {
    const { data } = await tenant.client.GET('/v1/tools');
    expect(data!.tools.map((x) => [x.slug, x.cost, x.scope, x.queue])).toEqual([
      ['image-resize', 1, 'image:write', 'image-standard-queue'],
      ['image-convert', 1, 'image:write', 'image-standard-queue'],
      ['image-thumbnail', 1, 'image:write', 'image-standard-queue'],
      ['video-convert', 5, 'video:write', 'video-standard-queue'],
      ['video-thumbnail', 1, 'video:write', 'video-standard-queue'],
      ['video-storyboard', 2, 'video:write', 'video-standard-queue'],
      ['audio-compress', 2, 'audio:write', 'audio-standard-queue'],
      ['audio-waveform', 1, 'audio:write', 'audio-standard-queue'],
      ['document-convert', 2, 'documents:write', 'document-standard-queue'],
      ['pdf-render', 1, 'documents:write', 'document-standard-queue'],
      ['media-info', 0, 'image:write', 'image-standard-queue'],
    ]);
    expect(data!.tools.find((x) => x.slug === 'media-info')).toMatchObject({
      kind: 'any',
      scopes: ['image:write', 'video:write', 'audio:write', 'documents:write'],
      outputFormats: [],
    });
    expect(data!.tools.filter((x) => x.slug !== 'media-info').every((x) => x.scopes.length === 1 && x.scopes[0] === x.scope)).toBe(true);
  });
});
