import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { countingServer, creditBalance, type CountingServer, waitForJob } from '../../support/jobs';
import { makeJpeg, makeVideo, pngBomb } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

const run = promisify(execFile);

/**
 * Media safety end to end (docs/decisions.md §7, issue 4 §5): hostile or broken inputs end as `failed`
 * with a clear code and a refund, the worker survives them, and ffmpeg never follows a playlist
 * to another address.
 */
describe('media safety end to end', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: CountingServer;
  let canary: CountingServer;
  const served: Record<string, Buffer> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-safety-'));
    canary = await countingServer('127.0.0.2');
    await makeVideo(join(dir, 'clip.mp4'), 4);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'clip.mp4'), '-c', 'copy', '-movflags', '+faststart', join(dir, 'fast.mp4')]);
    const clip = await readFile(join(dir, 'clip.mp4'));
    const fast = await readFile(join(dir, 'fast.mp4'));
    Object.assign(served, {
      'bomb.png': pngBomb(60_000, 60_000),
      'cut.mp4': clip.subarray(0, Math.floor(clip.length / 2)), // moov atom at the end: gone
      'cut-faststart.mp4': fast.subarray(0, Math.floor(fast.length / 2)), // decodes up to the cut
      'notes.txt': Buffer.from('this is not media\n'.repeat(200)),
      'random.bin': randomBytes(64 * 1024),
      'clip.mp4': clip,
      'photo.jpg': await makeJpeg(640, 480),
      // Playlists whose entries point at the canary: ffmpeg must not open them.
      'list.m3u8': Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${canary.origin}/seg.ts\n#EXT-X-ENDLIST\n`),
      'list.ffconcat': Buffer.from(`ffconcat version 1.0\nfile '${canary.origin}/seg.mp4'\n`),
    });
    files = await countingServer('127.0.0.1', (req: IncomingMessage, res: ServerResponse) => {
      const name = (req.url ?? '/').slice(1);
      if (name === 'huge.bin') return streamZeros(res, 26 * 1024 * 1024, false);
      if (name === 'huge-declared.bin') return streamZeros(res, 26 * 1024 * 1024, true);
      const body = served[name];
      if (!body) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-length', body.length);
      res.end(body);
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ credits: 1000 });
  });

  afterAll(async () => {
    await t?.close();
    await files?.close();
    await canary?.close();
    await rm(dir, { recursive: true, force: true });
  });

  function streamZeros(res: ServerResponse, size: number, declare: boolean): void {
    if (declare) res.setHeader('content-length', size);
    const block = Buffer.alloc(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += block.length;
        if (!res.write(block)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  }

  const url = (name: string) => `${files.origin}/${name}`;

  async function submitAll(jobs: [tool: string, input: string, options?: Record<string, unknown>][], who = tenant): Promise<Job[]> {
    const ids: string[] = [];
    for (const [tool, input, options] of jobs) {
      const { response, data } = await who.client.POST('/v1/jobs', { body: { tool: tool as any, input: { url: url(input) }, options: options ?? {} } });
      expect(response.status).toBe(202);
      ids.push((data as JobAccepted).id);
    }
    return Promise.all(ids.map((id) => waitForJob(who.client, id, 60_000)));
  }

  function expectFailed(job: Job, code: string, message?: RegExp): void {
    expect({ state: job.state, code: job.error?.code, result: job.result }).toEqual({ state: 'failed', code, result: null });
    expect(job.error!.message).toEqual(expect.any(String));
    expect(job.error!.message).not.toMatch(/\n|\bat .*:\d+|ffmpeg version|\/tmp\//); // one clean line, no internals
    if (message) expect(job.error!.message).toMatch(message);
    expect(job.finishedAt).not.toBeNull();
  }

  it('a decompression-bomb PNG (header 60000×60000) fails as unsupported_input without being decoded', async () => {
    const before = await creditBalance(tenant.client);
    const [resize, convert] = await submitAll([
      ['image-resize', 'bomb.png', { width: 100 }],
      ['image-convert', 'bomb.png', { format: 'webp' }],
    ]);
    expectFailed(resize, 'unsupported_input', /60000×60000 pixels.*exceeds/);
    expectFailed(convert, 'unsupported_input', /60000×60000 pixels.*exceeds/);
    expect(await creditBalance(tenant.client)).toBe(before);
  });

  it('a truncated MP4 fails as unsupported_input (moov atom lost, and faststart cut mid-stream)', async () => {
    const before = await creditBalance(tenant.client);
    const jobs = await submitAll([
      ['video-convert', 'cut.mp4', { format: 'webm', quality: 'low' }],
      ['video-convert', 'cut-faststart.mp4', { format: 'mp4' }],
      ['audio-compress', 'cut.mp4'],
    ]);
    for (const job of jobs) expectFailed(job, 'unsupported_input');
    expect(jobs[1].error!.message).toBe('The video file is truncated or corrupt.');
    expect(await creditBalance(tenant.client)).toBe(before);
  });

  it('a text file and random bytes fail as unsupported_input for every tool', async () => {
    const before = await creditBalance(tenant.client);
    const jobs = await submitAll([
      ['image-resize', 'notes.txt', { width: 10 }],
      ['image-convert', 'random.bin', { format: 'png' }],
      ['video-convert', 'notes.txt'],
      ['audio-compress', 'random.bin'],
      ['image-resize', 'clip.mp4', { width: 10 }], // real media, wrong kind
    ]);
    for (const job of jobs) expectFailed(job, 'unsupported_input');
    expect(await creditBalance(tenant.client)).toBe(before);
  });

  it('an HLS playlist or ffconcat script is refused, and the addresses in it are never opened', async () => {
    const jobs = await submitAll([
      ['video-convert', 'list.m3u8'],
      ['audio-compress', 'list.m3u8'],
      ['video-convert', 'list.ffconcat'],
    ]);
    for (const job of jobs) expectFailed(job, 'unsupported_input');
    expect({ connections: canary.connections, hits: canary.hits }).toEqual({ connections: 0, hits: 0 });
  });

  it('an input over the plan size limit fails as input_too_large, declared or streamed', async () => {
    const free = await t.newTenant({ plan: 'free', credits: 10 });
    const before = await creditBalance(free.client);
    const jobs = await submitAll(
      [
        ['image-resize', 'huge.bin', { width: 10 }],
        ['image-resize', 'huge-declared.bin', { width: 10 }],
      ],
      free,
    );
    for (const job of jobs) expectFailed(job, 'input_too_large');
    expect(await creditBalance(free.client)).toBe(before);
  });

  it('an input URL whose file name has a malformed %-escape is processed, not retried to processing_failed', async () => {
    served['photo%zz.jpg'] = served['photo.jpg'];
    const [job] = await submitAll([['image-resize', 'photo%zz.jpg', { width: 64 }]]);
    expect(job).toMatchObject({ state: 'completed', result: { width: 64, height: 48 } });
    expect(decodeURIComponent(new URL(job.result!.downloadUrl!).search)).toContain('photo%zz.jpg');
  });

  it('the worker keeps working: normal jobs submitted afterwards complete', async () => {
    const [image, video] = await submitAll([
      ['image-resize', 'photo.jpg', { width: 320 }],
      ['video-convert', 'clip.mp4', { format: 'mp4', quality: 'low' }],
    ]);
    expect(image).toMatchObject({ state: 'completed', result: { width: 320, height: 240 } });
    const out = Buffer.from(await (await contractFetch(image.result!.downloadUrl!)).arrayBuffer());
    expect(await sharp(out).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(video).toMatchObject({ state: 'completed', result: { outputFormat: 'mp4', width: 160, height: 120 } });
    expect(video.result!.duration).toBeGreaterThan(3.5);
  });
});
