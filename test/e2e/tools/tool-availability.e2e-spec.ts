import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { JobAccepted, Tool } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { expectError } from '../../support/expect-error';
import { creditBalance, type JobsApp, startJobsApp, waitForJob } from '../../support/jobs';
import { makeAudio } from '../../support/media-fixtures';
import { uniqueSlug } from '../../support/test-app';

jest.setTimeout(120_000);

/**
 * A server without ffmpeg (FFMPEG_PATH names a program that does not exist; the detector looks it
 * up for real, as the media layer would spawn it): /readyz says so, the catalogue marks its tools
 * unavailable, their jobs — alone, in a pipeline, or a drop's processing — are refused before
 * anything is charged, one boot line names the program, and the tools that need no ffmpeg still run.
 */
describe('tools whose programs are missing', () => {
  let jobs: JobsApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-tool-availability-'));
    jobs = await startJobsApp('tool-availability', { FFMPEG_PATH: join(dir, 'no-such-ffmpeg') });
  });
  afterAll(async () => {
    await jobs?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('/readyz reports ffmpeg missing, the others ok, and stays ready', async () => {
    const res = await contractFetch(`${jobs.t.baseUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', checks: { ffmpeg: 'missing', libreoffice: 'ok', poppler: 'ok' } });
  });

  it('GET /v1/tools marks the tools that need ffmpeg unavailable', async () => {
    const { data } = await jobs.t.client().GET('/v1/tools');
    const bySlug = Object.fromEntries(data!.tools.map((tool: Tool) => [tool.slug, tool]));
    for (const slug of ['video-convert', 'video-thumbnail', 'video-storyboard', 'audio-compress', 'audio-waveform', 'document-convert', 'media-info']) {
      expect({ slug, available: bySlug[slug].available }).toEqual({ slug, available: false });
      expect(bySlug[slug].requires).toContain('ffmpeg');
    }
    for (const slug of ['image-resize', 'image-convert', 'image-thumbnail', 'pdf-render']) expect({ slug, available: bySlug[slug].available }).toEqual({ slug, available: true });
    expect(bySlug['image-resize'].requires).toEqual([]);
  });

  it('refuses a job of such a tool with 503 tool_unavailable naming ffmpeg, charging nothing', async () => {
    const tenant = await jobs.t.newTenant({ plan: 'pro', credits: 50 });
    const before = await creditBalance(tenant.client);
    const { data, error, response } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'media-info', input: { url: jobs.files.url('icon.png') } },
      params: { header: { 'Idempotency-Key': randomUUID() } },
    });
    expect(data).toBeUndefined();
    expectError(response, error, 503, 'tool_unavailable');
    expect(error!.error.message).toMatch(/^media-info is unavailable on this server: ffmpeg is missing \(set FFMPEG_PATH/);

    // Steps: refused as a whole when any step's tool is unavailable.
    const pipeline = await tenant.client.POST('/v1/jobs', {
      body: { steps: { small: { tool: 'image-resize', options: { width: 16 } }, info: { tool: 'media-info', input: 'small' } }, input: { url: jobs.files.url('icon.png') } },
    });
    expectError(pipeline.response, pipeline.error, 503, 'tool_unavailable');

    // A template may name such a tool (the program may be installed before it runs); a job running it may not.
    const template = await tenant.client.POST('/v1/templates', { body: { name: 'Describe', steps: { info: { tool: 'media-info' } } } });
    expect(template.response.status).toBe(201);
    const fromTemplate = await tenant.client.POST('/v1/jobs', { body: { template: template.data!.template.id, input: { url: jobs.files.url('icon.png') } } });
    expectError(fromTemplate.response, fromTemplate.error, 503, 'tool_unavailable');
    expect(fromTemplate.error!.error.message).toContain('media-info is unavailable on this server: ffmpeg is missing');

    expect(await creditBalance(tenant.client)).toBe(before);
    expect((await tenant.client.GET('/v1/jobs')).data!.jobs).toEqual([]);
    expect((await tenant.client.GET('/v1/account/ledger')).data!.entries.filter((e) => e.amount < 0)).toEqual([]);
    // jobs.files serves the input: nothing was fetched for a refused job.
    expect(jobs.files.hits['icon.png'] ?? 0).toBe(0);
  });

  it("keeps a drop's file as sent when its processing needs ffmpeg, saying why", async () => {
    const owner = await jobs.t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('noff');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Voice notes', slug, allowedKinds: 'audio', autoCompress: true } })).response.status).toBe(201);
    await makeAudio(join(dir, 'tone.wav'), 1);
    const form = new FormData();
    form.append('senderName', 'Ada');
    form.append('file', new Blob([new Uint8Array(await readFile(join(dir, 'tone.wav')))], { type: 'audio/wav' }), 'tone.wav');
    const sent = await contractFetch(`${jobs.t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()).submission;
    const submission = (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } })).data!.submission;
    expect(submission).toMatchObject({ status: 'ready', processingError: { code: 'tool_unavailable' } });
    expect(submission.processingError?.message).toMatch(/audio-compress is unavailable on this server: ffmpeg is missing.*The file is kept as sent\.$/);
    expect(await creditBalance(owner.client)).toBe(20);
  });

  it('says once at boot which program is missing and what provides it', async () => {
    const lines = (await readFile(jobs.t.config.LOG_FILE!, 'utf8')).split('\n').filter((l) => l.includes('Missing program'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: 'warn', context: 'Tools' });
    expect(line.msg).toContain('Missing program ffmpeg: video-convert');
    expect(line.msg).toContain('apt-get install -y ffmpeg');
  });

  it('still runs the tools that need no ffmpeg', async () => {
    const tenant = await jobs.t.newTenant({ plan: 'pro', credits: 50 });
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: jobs.files.url('icon.png') }, options: { width: 16 } } });
    expect((await waitForJob(tenant.client, (data as JobAccepted).id)).state).toBe('completed');
  });
});
