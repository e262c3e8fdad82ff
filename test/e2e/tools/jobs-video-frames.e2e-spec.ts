import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { eventually, postForm } from '../../support/intake';
import { countingServer, type CountingServer, creditBalance, waitForJob } from '../../support/jobs';
import { makeAudio, makeVideo, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { parseStoryboardVtt } from '../../support/webvtt';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/**
 * video-thumbnail and video-storyboard end to end (issue 19): submitted over HTTP with `input.url`
 * (a loopback server) and `input.fileId` (an upload), run by the in-process worker, every output
 * downloaded through `result.outputs` and decoded; hostile inputs fail cleanly and are refunded.
 */
describe('video frames: video-thumbnail and video-storyboard', () => {
  let t: TestApp;
  let tenant: Tenant;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let hooks: CountingServer;
  const received: { type: string; data: { job: Job } }[] = [];
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-video-frames-'));
    await makeVideo(join(dir, 'clip.mp4'), 3, { size: '160x90', extra: ['-movflags', '+faststart'] });
    // A black second, then two of testsrc: `auto` must not pick the black.
    await run(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=black:size=160x90:rate=25:duration=1[a];testsrc=size=160x90:rate=25:duration=2[b];[a][b]concat=n=2:v=1:a=0'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(dir, 'fade.mp4')],
    ]);
    await makeAudio(join(dir, 'tone.wav'));
    const clip = await readFile(join(dir, 'clip.mp4'));
    files = await serveFiles({
      'clip.mp4': clip,
      'fade.mp4': await readFile(join(dir, 'fade.mp4')),
      'cut.mp4': clip.subarray(0, Math.floor(clip.length / 3)), // moov first: the header reads, the frames stop
      'tone.wav': await readFile(join(dir, 'tone.wav')),
    });
    hooks = await countingServer('127.0.0.1', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end();
      });
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ plan: 'max', credits: 1000 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await files?.close();
    await hooks?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function upload(name: string): Promise<string> {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(await readFile(join(dir, name)))], { type: 'video/mp4' }), name);
    const res = await postForm(`${t.baseUrl}/v1/uploads`, { body: fd, headers: { authorization: `Bearer ${tenant.token}` } });
    expect(res.status).toBe(201);
    return res.body.upload.id as string;
  }

  async function completed(body: Record<string, unknown>): Promise<Job> {
    const { response, data } = await tenant.client.POST('/v1/jobs', { body: body as any });
    expect(response.status).toBe(202);
    const job = await waitForJob(tenant.client, (data as JobAccepted).id, 120_000);
    expect(job).toMatchObject({ state: 'completed', progress: 100, error: null });
    return job;
  }

  /** Downloads an output of `result.outputs`, checking what the result says of it against what is served. */
  async function download(job: Job, name: string): Promise<Buffer> {
    const output = job.result!.outputs[name];
    const res = await contractFetch(output.downloadUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(output.contentType);
    expect(decodeURIComponent(res.headers.get('content-disposition')!.split("filename*=UTF-8''")[1])).toBe(output.fileName);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(output.size);
    return bytes;
  }

  async function workDirsOf(jobId: string): Promise<string[]> {
    return (await readdir(tmpdir())).filter((name) => name.startsWith(`dropline-${jobId}-`));
  }

  it('GET /v1/tools lists both, with their outputs', async () => {
    const { data } = await tenant.client.GET('/v1/tools');
    const bySlug = Object.fromEntries(data!.tools.map((tool) => [tool.slug, tool]));
    expect(bySlug['video-thumbnail']).toMatchObject({ kind: 'video', scope: 'video:write', cost: 1, outputFormats: ['jpeg', 'webp', 'png'] });
    expect(bySlug['video-thumbnail'].outputs.map((o) => o.name)).toEqual(['output']);
    expect(bySlug['video-storyboard'].outputs.map((o) => [o.name, o.formats])).toEqual([
      ['output', ['jpeg', 'webp']],
      ['vtt', ['vtt']],
    ]);
    expect(bySlug['image-resize'].outputs.map((o) => o.name)).toEqual(['output']); // every tool names its main output `output`
  });

  it('video-thumbnail from input.url: auto picks a lit frame, not the black fade-in; outputs.output is downloadUrl', async () => {
    const job = await completed({ tool: 'video-thumbnail', input: { url: files.url('fade.mp4') } });
    expect(job).toMatchObject({ queue: 'video-standard-queue', cost: 1 });
    expect(job.result).toMatchObject({ outputFormat: 'jpeg', width: 160, height: 90, message: 'A representative frame, 160x90 jpeg.' });
    expect(Object.keys(job.result!.outputs)).toEqual(['output']);
    expect(job.result!.outputs.output).toMatchObject({ contentType: 'image/jpeg', fileName: 'fade.jpg', format: 'jpeg', size: job.result!.outputSize, width: 160, height: 90 });
    expect(job.result!.outputs.output.downloadUrl).toBe(job.result!.downloadUrl);
    const image = await download(job, 'output');
    const { channels } = await sharp(image).stats();
    expect(channels.slice(0, 3).reduce((s, c) => s + c.mean, 0) / 3).toBeGreaterThan(60);
  });

  it('video-thumbnail from input.fileId: the frame at 1.5 s, 64 wide, webp', async () => {
    const job = await completed({ tool: 'video-thumbnail', input: { fileId: await upload('clip.mp4') }, options: { at: 1.5, width: 64, format: 'webp' } });
    expect(await sharp(await download(job, 'output')).metadata()).toMatchObject({ format: 'webp', width: 64, height: 36 });
  });

  it.each([
    ['input.url', async () => ({ url: files.url('clip.mp4') })],
    ['input.fileId', async () => ({ fileId: await upload('clip.mp4') })],
  ])('video-storyboard from %s: a sprite and a WebVTT whose every cue lies inside it', async (_how, input) => {
    const job = await completed({ tool: 'video-storyboard', input: await input(), options: { interval: 1, columns: 2, width: 64 } });
    expect(job.cost).toBe(2);
    const { output, vtt } = job.result!.outputs;
    expect(output).toMatchObject({ contentType: 'image/jpeg', fileName: 'clip.jpg', tiles: 3, columns: 2, rows: 2, tileWidth: 64, tileHeight: 36, interval: 1 });
    expect(output.downloadUrl).toBe(job.result!.downloadUrl);
    expect(vtt).toMatchObject({ contentType: 'text/vtt', fileName: 'clip.vtt', format: 'vtt', cues: 3 });
    const sprite = await sharp(await download(job, 'output')).metadata();
    expect(sprite).toMatchObject({ format: 'jpeg', width: 128, height: 72 });
    const cues = parseStoryboardVtt((await download(job, 'vtt')).toString('utf8'));
    expect(cues).toHaveLength(3);
    for (const cue of cues) {
      expect(cue.url).toBe(encodeURIComponent(output.fileName)); // relative to the VTT: the sprite as it downloads
      expect(cue.x + cue.w).toBeLessThanOrEqual(sprite.width);
      expect(cue.y + cue.h).toBeLessThanOrEqual(sprite.height);
    }
  });

  it('job.completed webhooks carry result.outputs, each signed', async () => {
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'video-storyboard', input: { url: files.url('clip.mp4') }, options: { interval: 2 }, webhookUrl: `${hooks.origin}/hook` } as any,
    });
    const event = (await eventually(async () => received.find((e) => e.data.job.id === (data as JobAccepted).id), 120_000, 200))!;
    expect(event.type).toBe('job.completed');
    const outputs = event.data.job.result!.outputs;
    expect(Object.keys(outputs)).toEqual(['output', 'vtt']);
    expect((await contractFetch(outputs.vtt.downloadUrl!)).status).toBe(200);
  });

  it.each([
    ['video-thumbnail', 'a truncated video', 'cut.mp4'],
    ['video-storyboard', 'a truncated video', 'cut.mp4'],
    ['video-thumbnail', 'audio, not video', 'tone.wav'],
    ['video-storyboard', 'audio, not video', 'tone.wav'],
  ])('%s of %s: failed with unsupported_input, refunded, no work dir left, the worker goes on', async (tool, _what, name) => {
    const before = await creditBalance(tenant.client);
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool, input: { url: files.url(name) } } as any });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id, 120_000);
    expect(job).toMatchObject({ state: 'failed', result: null, refunded: true, error: { code: 'unsupported_input', message: expect.any(String) } });
    expect(job.error!.message).not.toMatch(/\n|ffmpeg version/);
    expect(await creditBalance(tenant.client)).toBe(before);
    // The work dir goes in the run's `finally`, just after the failed state is written: wait for it.
    expect(await eventually(async () => (await workDirsOf(job.id)).length === 0, 10_000, 100)).toBe(true);
    const next = await completed({ tool: 'video-thumbnail', input: { url: files.url('clip.mp4') }, options: { at: 0, width: 16 } });
    expect(next.result!.outputs.output.width).toBe(16);
  });
});
