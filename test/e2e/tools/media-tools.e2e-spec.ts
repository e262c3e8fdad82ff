import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { thumbHashToRGBA } from 'thumbhash';
import type { Job, JobAccepted } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { type Answer, postForm } from '../../support/intake';
import { countingServer, creditBalance, type CountingServer, waitForJob } from '../../support/jobs';
import { makeAudio, makeJpeg, makeVideo, pngBomb } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

const run = promisify(execFile);

/**
 * image-thumbnail, audio-waveform and media-info (issue 19) end to end: POST /v1/jobs with
 * `input.url` (a loopback server) and `input.fileId` (an upload), outputs decoded; hostile inputs
 * fail with a clear code, are refunded, leave no work directory, and the worker goes on.
 */
describe('media tools end to end', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: CountingServer;
  const served: Record<string, Buffer> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-media-tools-'));
    await makeAudio(join(dir, 'tone.wav'), 3);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'tone.wav'), '-c:a', 'aac', '-movflags', '+faststart', join(dir, 'tone.m4a')]);
    await makeVideo(join(dir, 'clip.mp4'), 2);
    const m4a = await readFile(join(dir, 'tone.m4a'));
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .png()
      .toBuffer();
    const mp4 = await readFile(join(dir, 'clip.mp4')); // moov atom at the end
    Object.assign(served, {
      'photo.jpg': await makeJpeg(640, 480),
      'tone.wav': await readFile(join(dir, 'tone.wav')),
      'clip.mp4': await readFile(join(dir, 'clip.mp4')),
      'bomb.png': pngBomb(60_000, 60_000),
      'cut.m4a': m4a.subarray(0, m4a.length >> 1),
      'cut.png': png.subarray(0, png.length >> 1),
      'cut.mp4': mp4.subarray(0, mp4.length >> 1),
      // Not text either (text is a document now): bytes no probe recognises.
      'notes.txt': Buffer.from(Array.from({ length: 1800 }, (_, i) => (i * 37 + 11) % 256)),
    });
    files = await countingServer('127.0.0.1', (req, res) => {
      const body = served[(req.url ?? '/').slice(1)];
      res.statusCode = body ? 200 : 404;
      res.end(body);
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ credits: 1000 });
  });

  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const url = (name: string) => `${files.origin}/${name}`;

  async function submit(body: Record<string, unknown>, who = tenant): Promise<Job> {
    const { response, data } = await who.client.POST('/v1/jobs', { body: body as never });
    expect(response.status).toBe(202);
    return waitForJob(who.client, (data as JobAccepted).id, 120_000);
  }

  async function upload(data: Buffer, name: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res: Answer = await postForm(`${t.baseUrl}/v1/uploads`, { body: form, headers: { authorization: `Bearer ${tenant.token}` } });
    expect(res.status).toBe(201);
    return (res.body as { upload: { id: string } }).upload.id;
  }

  async function download(job: Job): Promise<Buffer> {
    return Buffer.from(await (await contractFetch(job.result!.downloadUrl!)).arrayBuffer());
  }

  /** The worker's temp dir of a job (`dropline-<jobId>-…`) is removed once the run is over. */
  async function expectNoWorkDir(jobId: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const left = (await readdir(tmpdir())).filter((name) => name.startsWith(`dropline-${jobId}-`));
      if (left.length === 0) return;
      if (Date.now() > deadline) throw new Error(`work dir of ${jobId} left behind: ${left.join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('image-thumbnail from input.url: a smart-cropped WebP, its ThumbHash and dominant colour in the result', async () => {
    const job = await submit({ tool: 'image-thumbnail', input: { url: url('photo.jpg') }, options: { width: 160, height: 160 } });
    expect(job).toMatchObject({ state: 'completed', cost: 1, result: { outputFormat: 'webp', width: 160, height: 160, dominantColor: expect.stringMatching(/^#[0-9a-f]{6}$/) } });
    const meta = await sharp(await download(job)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 160, height: 160 });
    expect(meta.exif).toBeUndefined();
    const placeholder = thumbHashToRGBA(Buffer.from(job.result!.placeholder!.thumbhash, 'base64'));
    expect(placeholder).toMatchObject({ w: 32, h: 32 });
    expect(placeholder.rgba.length).toBe(32 * 32 * 4);
  });

  it('image-thumbnail without a size is refused at submission: 400 naming body/options, nothing charged', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const res = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-thumbnail', input: { url: url('photo.jpg') } } });
    expect(res.response.status).toBe(400);
    expect(res.error).toMatchObject({ error: { code: 'validation_failed', details: [{ path: 'body/options', message: 'must have width or height' }] } });
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
  });

  it('image-thumbnail from input.fileId: EXIF orientation applied and stripped, in JPEG', async () => {
    const rotated = await sharp(await makeJpeg(300, 200))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const fileId = await upload(rotated, 'portrait.jpg');
    const job = await submit({ tool: 'image-thumbnail', input: { fileId }, options: { width: 100, fit: 'inside', format: 'jpeg', quality: 70 } });
    expect(job).toMatchObject({ state: 'completed', result: { outputFormat: 'jpeg', width: 100, height: 150 } });
    const meta = await sharp(await download(job)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 150 });
    expect(meta.orientation).toBeUndefined();
  });

  it('audio-waveform from input.url: BBC JSON of `points` pairs within the range of its bits', async () => {
    const job = await submit({ tool: 'audio-waveform', input: { url: url('tone.wav') }, options: { points: 500, bits: 8 } });
    expect(job).toMatchObject({ state: 'completed', cost: 1, result: { outputFormat: 'json', message: 'Waveform of 500 points.' } });
    const json = JSON.parse((await download(job)).toString('utf8'));
    expect(json).toMatchObject({ version: 2, channels: 1, sample_rate: 44_100, bits: 8, length: 500 });
    expect(json.data).toHaveLength(1000);
    expect(json.data.every((v: number) => Number.isInteger(v) && v >= -128 && v <= 127)).toBe(true);
    expect(Math.max(...json.data)).toBeGreaterThan(10);
  });

  it('audio-waveform from input.fileId: a width × height PNG', async () => {
    const fileId = await upload(served['tone.wav'], 'tone.wav');
    const job = await submit({ tool: 'audio-waveform', input: { fileId }, options: { format: 'png', width: 600, height: 120, color: '#00aa55' } });
    expect(job).toMatchObject({ state: 'completed', result: { outputFormat: 'png', width: 600, height: 120 } });
    expect(await sharp(await download(job)).metadata()).toMatchObject({ format: 'png', width: 600, height: 120, hasAlpha: true });
  });

  it('media-info: free, no file (downloadUrl, outputFormat and outputSize null), the info in the result; any media scope may ask', async () => {
    const audioOnly = await t.newKey(tenant.account.id, { scopes: ['audio:write'] });
    const before = await creditBalance(tenant.client);
    const video = await submit({ tool: 'media-info', input: { url: url('clip.mp4') } }, { ...tenant, client: audioOnly.client });
    expect(video).toMatchObject({
      state: 'completed',
      cost: 0,
      result: {
        outputFormat: null,
        downloadUrl: null,
        outputSize: null,
        outputs: {},
        expiredAt: null,
        info: { kind: 'video', format: 'mp4', width: 160, height: 120, videoCodec: 'h264', audioCodec: 'aac', frameRate: 25, size: served['clip.mp4'].length },
      },
    });
    expect(video.result!.info!.duration).toBeCloseTo(2, 0);
    const fileId = await upload(served['photo.jpg'], 'photo.jpg');
    const image = await submit({ tool: 'media-info', input: { fileId } });
    expect(image.result).toMatchObject({ downloadUrl: null, info: { kind: 'image', format: 'jpeg', width: 640, height: 480, orientation: 1, size: served['photo.jpg'].length } });
    expect(await creditBalance(tenant.client)).toBe(before);
    // Listed like any job (of its key); a key without a media scope may not submit it.
    const { data } = await tenant.client.GET('/v1/jobs', { params: { query: { tool: 'media-info' } } });
    expect(data!.jobs.map((j) => j.id)).toEqual([image.id]);
    const dropsOnly = await t.newKey(tenant.account.id, { scopes: ['drops:read'] });
    const refused = await dropsOnly.client.POST('/v1/jobs', { body: { tool: 'media-info', input: { url: url('clip.mp4') } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ error: { code: 'insufficient_scope', message: expect.stringContaining('one of the scopes image:write, video:write, audio:write') } });
  });

  it('hostile inputs fail with a clear code, refunded, no work dir left, and the worker goes on', async () => {
    const before = await creditBalance(tenant.client);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ tool: 'image-thumbnail', input: { url: url('bomb.png') }, options: { width: 64 } }, 'unsupported_input', /60000×60000 pixels.*exceeds/],
      [{ tool: 'image-thumbnail', input: { url: url('tone.wav') }, options: { width: 64 } }, 'unsupported_input', /needs an image file; the input is an audio file/],
      [{ tool: 'image-thumbnail', input: { url: url('cut.png') }, options: { width: 64 } }, 'unsupported_input', /corrupt or truncated/],
      [{ tool: 'audio-waveform', input: { url: url('cut.m4a') } }, 'unsupported_input', /truncated or corrupt/],
      [{ tool: 'audio-waveform', input: { url: url('photo.jpg') } }, 'unsupported_input', /needs an audio file; the input is an image file/],
      [{ tool: 'media-info', input: { url: url('notes.txt') } }, 'unsupported_input', /the input is not a media file/],
      [{ tool: 'media-info', input: { url: url('cut.mp4') } }, 'unsupported_input', /not a media file/],
    ];
    const jobs = await Promise.all(cases.map(([body]) => submit(body)));
    jobs.forEach((job, i) => {
      expect({ state: job.state, code: job.error?.code, result: job.result, refunded: job.refunded || job.cost === 0 }).toEqual({
        state: 'failed',
        code: cases[i][1],
        result: null,
        refunded: true,
      });
      expect(job.error!.message).toMatch(cases[i][2]);
    });
    for (const job of jobs) await expectNoWorkDir(job.id);
    expect(await creditBalance(tenant.client)).toBe(before);
    const after = await submit({ tool: 'image-thumbnail', input: { url: url('photo.jpg') }, options: { height: 50 } });
    expect(after).toMatchObject({ state: 'completed', result: { width: 67, height: 50 } });
    expect((await stat(join(dir, 'files'))).isDirectory()).toBe(true);
  });
});
