import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobAccepted } from '../../../generated/types';
import { creditBalance, waitForJob } from '../../support/jobs';
import { makePng, makeVideo, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/**
 * A planned output over the pixel limit fails the job `invalid_option`, naming the size, before
 * any process builds it: a few-KB 2×1600 video asks for a 480×384 000 storyboard tile or frame
 * (184 megapixels; ffmpeg allocated ~2 GB for it). The app's ffmpeg is a wrapper that notes each
 * run and then runs the real one, so the test sees that the refused jobs never started ffmpeg.
 */
describe('planned output sizes, checked before any process runs', () => {
  let t: TestApp;
  let tenant: Tenant;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let dir: string;
  let ffmpegRuns: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-output-size-'));
    await makeVideo(join(dir, 'tall.mp4'), 3, { size: '2x1600', audio: false });
    ffmpegRuns = join(dir, 'ffmpeg-runs.log');
    const ffmpeg = join(dir, 'ffmpeg');
    await writeFile(ffmpeg, `#!/bin/sh\necho "$*" >> '${ffmpegRuns}'\nexec '${process.env.FFMPEG_PATH ?? 'ffmpeg'}' "$@"\n`);
    await chmod(ffmpeg, 0o755);
    files = await serveFiles({ 'tall.mp4': await readFile(join(dir, 'tall.mp4')), 'tall.png': await makePng(2, 1600) });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files'), FFMPEG_PATH: ffmpeg });
    tenant = await t.newTenant({ plan: 'max', credits: 1000 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ranFfmpeg = () => readFile(ffmpegRuns, 'utf8').catch(() => '');

  async function run(tool: string, name: string, options: Record<string, unknown>) {
    const { response, data } = await tenant.client.POST('/v1/jobs', { body: { tool, input: { url: files.url(name) }, options } as any });
    expect(response.status).toBe(202);
    return waitForJob(tenant.client, (data as JobAccepted).id, 120_000);
  }

  it.each([
    ['video-storyboard', 'tall.mp4', { interval: 0.5, columns: 1, width: 480 }, 'One row of 1 tile of 480×384000 would be 480×384000 pixels (184.3 megapixels)'],
    ['video-thumbnail', 'tall.mp4', { at: 1, width: 480 }, 'The frame would be 480×384000 pixels (184.3 megapixels)'],
    ['image-thumbnail', 'tall.png', { width: 480 }, 'The output would be 480×384000 pixels (184.3 megapixels)'],
    ['image-resize', 'tall.png', { width: 480 }, 'The output would be 480×384000 pixels (184.3 megapixels)'],
  ])('%s of a 2×1600 input (%s): failed invalid_option naming the size, refunded, no ffmpeg run', async (tool, name, options, size) => {
    const before = await creditBalance(tenant.client);
    const job = await run(tool, name, options);
    expect(job).toMatchObject({
      state: 'failed',
      result: null,
      refunded: true,
      error: { code: 'invalid_option', message: `${size}, which exceeds the limit of 100 megapixels.` },
    });
    expect(await creditBalance(tenant.client)).toBe(before);
    expect(await ranFfmpeg()).toBe('');
  });

  it('the same video within the limit is processed: ffmpeg runs (the wrapper sees it)', async () => {
    const job = await run('video-thumbnail', 'tall.mp4', { at: 1, width: 16, format: 'png' });
    expect(job).toMatchObject({ state: 'completed', error: null });
    expect(job.result!.outputs.output).toMatchObject({ width: 16, height: 12800 });
    expect(await ranFfmpeg()).toContain('scale=16:-2');
  });
});
