import { createJobAndWait, type JobBody, type JobWebhookEvent, pipelineSteps, uploadFile, verifyWebhook } from '@dropline/client';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Job, JobAccepted, JobOutput, LedgerEntry } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { makePdf } from '../../support/document-fixtures';
import { expectError } from '../../support/expect-error';
import { countingServer, type CountingServer, creditBalance, waitForJob } from '../../support/jobs';
import { makeAudio, makePng, makeVideo, probe } from '../../support/media-fixtures';
import { ReconcileJobs } from '../../../src/jobs/use-cases/reconcile-jobs';
import { checkedClient, startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import { webhookContractErrors } from '../../support/webhook-contract';
import { startReceiver } from '../../support/webhook-receiver';
import { parseStoryboardVtt } from '../../support/webvtt';

jest.setTimeout(240_000);

/**
 * Issue 20: pipeline jobs — `POST /v1/jobs` with named `steps` or a saved `template` — over real
 * HTTP with the client package (every answer checked against openapi.yaml), run by the in-process
 * worker on real media served from a loopback server; each output is downloaded and decoded.
 */
describe('pipelines: jobs of named steps and templates', () => {
  let t: TestApp;
  let dir: string;
  let files: CountingServer;
  /** Bytes served by path; a path in `holds` waits until released (its steps stay running). */
  const served: Record<string, { type: string; body: Buffer }> = {};
  const holds = new Map<string, { waiting: (() => void)[]; released: boolean; serveFirst?: boolean }>();
  const url = (name: string) => `${files.origin}/${name}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-pipelines-'));
    await makeVideo(join(dir, 'clip.mp4'), 3, { size: '1280x720', extra: ['-movflags', '+faststart'] });
    served['clip.mp4'] = { type: 'video/mp4', body: await readFile(join(dir, 'clip.mp4')) };
    served['photo.png'] = { type: 'image/png', body: await makePng(640, 480) };
    await makeAudio(join(dir, 'tone.wav'), 2);
    served['tone.wav'] = { type: 'audio/wav', body: await readFile(join(dir, 'tone.wav')) };
    served['doc.pdf'] = {
      type: 'application/pdf',
      body: makePdf(2, {
        colors: [
          [0.9, 0.2, 0.2],
          [0.2, 0.2, 0.9],
        ],
      }),
    };
    files = await countingServer('127.0.0.1', (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const name = path.replace(/^\/(held-[^/]+\/)?/, '');
      const file = served[name];
      if (!file) return void res.writeHead(404).end();
      const send = () => res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(file.body);
      const hold = holds.get(path);
      if (hold?.serveFirst)
        hold.serveFirst = false; // serve the first request, hold those after it
      else if (hold && !hold.released) return void hold.waiting.push(send);
      send();
    });
    // Two video steps at once, so independent video steps really run side by side.
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files'), VIDEO_WORKER_CONCURRENCY: '2' });
  }, 120_000);
  afterAll(async () => {
    for (const hold of holds.values()) release(hold);
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  function release(hold: { waiting: (() => void)[]; released: boolean }): void {
    hold.released = true;
    for (const send of hold.waiting.splice(0)) send();
  }

  /** A URL serving `name` whose requests wait until `release()`; `fetched` counts those waiting. */
  function heldUrl(name: string, options: { serveFirst?: boolean } = {}): { url: string; fetched: () => number; release: () => void } {
    const path = `/held-${randomUUID()}/${name}`;
    const hold = { waiting: [] as (() => void)[], released: false, serveFirst: options.serveFirst ?? false };
    holds.set(path, hold);
    return { url: `${files.origin}${path}`, fetched: () => hold.waiting.length, release: () => release(hold) };
  }

  async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function submit(tenant: Tenant, body: JobBody): Promise<string> {
    const { data, error, response } = await tenant.client.POST('/v1/jobs', { body });
    if (response.status !== 202) throw new Error(`POST /v1/jobs: ${response.status} ${JSON.stringify(error)}`);
    return (data as JobAccepted).id;
  }

  /** The job's ledger lines, oldest first. */
  async function ledgerOf(tenant: Tenant, jobId: string): Promise<Pick<LedgerEntry, 'amount' | 'reason' | 'step'>[]> {
    const { data } = await tenant.client.GET('/v1/account/ledger', { params: { query: { limit: 100 } } });
    return data!.entries
      .filter((e) => e.jobId === jobId)
      .map(({ amount, reason, step }) => ({ amount, reason, ...(step === undefined ? {} : { step }) }))
      .reverse();
  }

  /** One refund line per named step, of that step's cost, in any order. */
  function expectStepRefunds(lines: Pick<LedgerEntry, 'amount' | 'reason' | 'step'>[], job: Job, names: string[]): void {
    const refunds = lines.filter((l) => l.reason === 'job_refund');
    const byStep = (a: { step?: string }, b: { step?: string }) => (a.step ?? '').localeCompare(b.step ?? '');
    expect([...refunds].sort(byStep)).toEqual(names.map((step) => ({ amount: job.steps![step].cost, reason: 'job_refund', step })).sort(byStep));
  }

  /** Each tool's listed cost (GET /v1/tools). */
  async function toolCosts(tenant: Tenant): Promise<Record<string, number>> {
    const { data } = await tenant.client.GET('/v1/tools');
    return Object.fromEntries(data!.tools.map((tool) => [tool.slug, tool.cost]));
  }

  /** Downloads one output through its signed URL, checking what the job says of it against what is served. */
  async function download(output: JobOutput): Promise<Buffer> {
    const res = await contractFetch(output.downloadUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(output.contentType);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(output.size);
    return bytes;
  }

  /** A job without its download URLs, which are signed afresh at each read (their expiry moves on). */
  /** A job's view without its signed URLs, which carry the second they were signed at (two reads may straddle one). */
  function unsigned(job: Job): unknown {
    const strip = (outputs: Record<string, JobOutput>) => Object.fromEntries(Object.entries(outputs).map(([name, out]) => [name, { ...out, downloadUrl: null }]));
    const stripResult = <R extends { downloadUrl?: string | null; outputs?: Record<string, JobOutput> } | null | undefined>(result: R) =>
      result && { ...result, downloadUrl: null, ...(result.outputs ? { outputs: strip(result.outputs) } : {}) };
    return {
      ...job,
      result: stripResult(job.result),
      steps: job.steps && Object.fromEntries(Object.entries(job.steps).map(([name, step]) => [name, { ...step, result: stripResult(step.result), outputs: strip(step.outputs) }])),
    };
  }

  it('a video recipe (web mp4, poster, storyboard, and a small poster read from the poster): completed, every output decodes, the cost is the sum, debited once', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    const job = await createJobAndWait(
      tenant.client,
      {
        input: { url: url('clip.mp4') },
        steps: pipelineSteps({
          web: { tool: 'video-convert', options: { format: 'mp4', quality: 'low' } },
          poster: { tool: 'video-thumbnail', options: { at: 1, width: 640, format: 'jpeg' } },
          storyboard: { tool: 'video-storyboard', options: { interval: 1, columns: 3, width: 160 } },
          small: { tool: 'image-resize', input: 'poster', options: { width: 160 } },
        }),
      },
      { waitSeconds: 60, timeoutMs: 200_000 },
    );
    expect(job).toMatchObject({ state: 'completed', progress: 100, error: null, refunded: false, tool: 'video-convert', queue: 'video-standard-queue' });

    // The steps, in the order given, each with its tool, its input, its share of the cost and its files.
    const costs = await toolCosts(tenant);
    const steps = job.steps!;
    expect(Object.keys(steps)).toEqual(['web', 'poster', 'storyboard', 'small']);
    const expectedInputs = { web: null, poster: null, storyboard: null, small: 'poster' };
    const expectedTools = { web: 'video-convert', poster: 'video-thumbnail', storyboard: 'video-storyboard', small: 'image-resize' };
    for (const [name, step] of Object.entries(steps)) {
      expect(step).toMatchObject({ tool: expectedTools[name as keyof typeof expectedTools], input: expectedInputs[name as keyof typeof expectedInputs], state: 'completed' });
      expect(step).toMatchObject({ progress: 100, error: null, startedAt: expect.any(String), finishedAt: expect.any(String), cost: costs[step.tool] });
    }
    expect(Object.keys(steps.storyboard.outputs).sort()).toEqual(['output', 'vtt']);
    // A step reading another starts once that one has finished; the job spans its steps.
    expect(Date.parse(steps.small.startedAt!)).toBeGreaterThanOrEqual(Date.parse(steps.poster.finishedAt!));
    for (const step of Object.values(steps)) {
      expect(Date.parse(job.startedAt!)).toBeLessThanOrEqual(Date.parse(step.startedAt!));
      expect(Date.parse(job.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(step.finishedAt!));
    }

    // The cost is the sum of the steps', debited once (one ledger line).
    const cost = costs['video-convert'] + costs['video-thumbnail'] + costs['video-storyboard'] + costs['image-resize'];
    expect(job.cost).toBe(cost);
    expect(Object.values(steps).reduce((sum, s) => sum + s.cost, 0)).toBe(cost);
    expect(await ledgerOf(tenant, job.id)).toEqual([{ amount: -cost, reason: 'job_debit' }]);
    expect(await creditBalance(tenant.client)).toBe(before - cost);
    // One job in the account's list, not one per step, shown as GET shows it.
    const listed = (await tenant.client.GET('/v1/jobs')).data!.jobs;
    expect(listed.map((j) => j.id)).toEqual([job.id]);
    expect(unsigned(listed[0])).toEqual(unsigned(job));

    // result: no single download, every file in outputs — a step's main output by its name, a further one as <step>.<name>.
    const result = job.result!;
    expect(result).toMatchObject({ downloadUrl: null, outputFormat: null, outputSize: null });
    const outputs = result.outputs;
    expect(Object.keys(outputs).sort()).toEqual(['poster', 'small', 'storyboard', 'storyboard.vtt', 'web']);
    for (const [name, step] of Object.entries(steps)) {
      expect(outputs[name]).toEqual({ ...step.outputs.output, downloadUrl: expect.any(String) });
    }
    expect(outputs['storyboard.vtt']).toEqual({ ...steps.storyboard.outputs.vtt, downloadUrl: expect.any(String) });

    const web = join(dir, `${job.id}-web.mp4`);
    await writeFile(web, await download(outputs.web));
    const info = await probe(web);
    expect(info.format).toMatch(/mp4/);
    expect(info.duration).toBeCloseTo(3, 0);
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(outputs.web).toMatchObject({ contentType: 'video/mp4', format: 'mp4', width: 1280, height: 720 });

    expect(await sharp(await download(outputs.poster)).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
    expect(await sharp(await download(outputs.small)).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 90 });

    expect(outputs.storyboard).toMatchObject({ contentType: 'image/jpeg', tiles: 3, columns: 3, rows: 1, tileWidth: 160, tileHeight: 90 });
    const sprite = await sharp(await download(outputs.storyboard)).metadata();
    expect(sprite).toMatchObject({ format: 'jpeg', width: 480, height: 90 });
    expect(outputs['storyboard.vtt']).toMatchObject({ contentType: 'text/vtt', format: 'vtt', cues: 3 });
    const cues = parseStoryboardVtt((await download(outputs['storyboard.vtt'])).toString('utf8'));
    expect(cues).toHaveLength(3);
    for (const cue of cues) {
      expect(cue.url).toBe(encodeURIComponent(outputs.storyboard.fileName));
      expect(cue.x + cue.w).toBeLessThanOrEqual(sprite.width);
    }
  });

  it('a failing middle step fails its readers (upstream_failed, never run) and the job (error.step); exactly their credits come back; completed steps stay downloadable', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    const job = await createJobAndWait(
      tenant.client,
      {
        input: { url: url('doc.pdf') },
        steps: pipelineSteps({
          first: { tool: 'pdf-render', options: { page: 1, width: 200 } },
          thumb: { tool: 'image-resize', input: 'first', options: { width: 50 } },
          bad: { tool: 'pdf-render', options: { page: 99 } }, // the PDF has 2 pages: invalid_option once it is read
          after: { tool: 'image-resize', input: 'bad', options: { width: 10 } },
          last: { tool: 'image-convert', input: 'after', options: { format: 'webp' } },
        }),
      },
      { waitSeconds: 60, timeoutMs: 120_000 },
    );
    expect(job).toMatchObject({ state: 'failed', result: null, refunded: false, tool: 'pdf-render', queue: 'document-standard-queue' });
    expect(job.error).toEqual({ code: 'invalid_option', message: expect.any(String), step: 'bad' });
    const steps = job.steps!;
    expect(steps.bad).toMatchObject({ state: 'failed', error: { code: 'invalid_option' }, outputs: {} });
    expect(steps.bad.error!.message).toMatch(/page/i);
    for (const name of ['after', 'last']) {
      expect(steps[name]).toMatchObject({ state: 'failed', error: { code: 'upstream_failed', message: expect.any(String) }, startedAt: null, progress: 0, outputs: {} });
    }
    for (const name of ['first', 'thumb']) expect(steps[name]).toMatchObject({ state: 'completed', error: null, progress: 100 });

    // The files of the steps that completed stay downloadable.
    expect(await sharp(await download(steps.first.outputs.output)).metadata()).toMatchObject({ format: 'png', width: 200 });
    expect(await sharp(await download(steps.thumb.outputs.output)).metadata()).toMatchObject({ format: 'png', width: 50 });

    // One refund line per step that failed or never ran, of that step's cost; the completed steps' credits stay spent.
    const refunded = ['bad', 'after', 'last'].map((name) => steps[name].cost);
    const kept = steps.first.cost + steps.thumb.cost;
    const lines = await ledgerOf(tenant, job.id);
    expect(lines[0]).toEqual({ amount: -job.cost, reason: 'job_debit' });
    expectStepRefunds(lines, job, ['bad', 'after', 'last']);
    expect(lines).toHaveLength(1 + refunded.length);
    expect(job.cost).toBe(kept + refunded.reduce((a, b) => a + b, 0));
    expect(await creditBalance(tenant.client)).toBe(before - kept);
  });

  it('a step that fails when its input cannot be fetched: every step reading the job input fails, the job is refunded in full', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    const job = await createJobAndWait(
      tenant.client,
      {
        input: { url: url('missing.png') },
        steps: { webp: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'webp', options: { width: 10 } } },
      },
      { waitSeconds: 30, timeoutMs: 60_000 },
    );
    expect(job).toMatchObject({ state: 'failed', refunded: true, error: { code: 'input_fetch_failed', step: 'webp' } });
    expect(job.steps!.small).toMatchObject({ state: 'failed', error: { code: 'upstream_failed' }, startedAt: null });
    expect(await creditBalance(tenant.client)).toBe(before);
  });

  it('steps that cannot run, or two of tool/steps/template, are 400 invalid_pipeline naming the step; nothing is debited or created', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    const input = { url: url('photo.png') };
    const resize = (from?: string) => ({ tool: 'image-resize', options: { width: 10 }, ...(from ? { input: from } : {}) });
    const post = (body: Record<string, unknown>) => tenant.client.POST('/v1/jobs', { body: body as any });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ a: resize('b'), b: resize('a') }, 'body/steps/a/input', /cycle/],
      [{ a: resize(), b: resize('c'), c: resize('b') }, 'body/steps/b/input', /"b" → "c" → "b"/],
      [{ a: resize('nowhere') }, 'body/steps/a/input', /"nowhere", which is not a step/],
      [{ a: resize('a') }, 'body/steps/a/input', /own output/],
      [
        { mp4: { tool: 'video-convert', options: { format: 'mp4' } }, small: resize('mp4') },
        'body/steps/small/input',
        /takes an image file; step "mp4" \(video-convert\) writes a video file/,
      ],
      [{ a: { tool: 'no-such-tool' } }, 'body/steps/a/tool', /unknown tool/],
      [{ peaks: { tool: 'audio-waveform', options: { format: 'json' } }, img: resize('peaks') }, 'body/steps/img/input', /writes a data file|writes no file/],
      [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, resize()])), 'body/steps', /at most 10 steps; step "s10"/],
    ];
    for (const [steps, path, message] of cases) {
      const res = await post({ input, steps });
      expectError(res.response, res.error, 400, 'invalid_pipeline');
      expect(res.error!.error.message).toMatch(message);
      expect(res.error!.error.details).toEqual([{ path, message: res.error!.error.message }]);
    }
    // A step's options are checked against its tool's schema, at the step's path.
    const badOptions = await post({ input, steps: { a: { tool: 'image-convert', options: { format: 'bmp' } } } });
    expectError(badOptions.response, badOptions.error, 400, 'validation_failed');
    expect(badOptions.error!.error.details![0].path).toBe('body/steps/a/options/format');

    const template = (await tenant.client.POST('/v1/templates', { body: { name: 'Small', steps: { small: { tool: 'image-resize', options: { width: 10 } } } } })).data!.template;
    for (const body of [
      { tool: 'image-resize', options: { width: 10 }, input, steps: { a: resize() } },
      { steps: { a: resize() }, template: template.id, input },
      { tool: 'image-resize', options: { width: 10 }, template: template.id, input },
    ]) {
      const res = await post(body);
      expectError(res.response, res.error, 400, 'invalid_pipeline');
    }
    expect((await tenant.client.GET('/v1/jobs')).data!.jobs).toEqual([]);
    expect(await creditBalance(tenant.client)).toBe(before);
  });

  it("a template runs as its steps on the job's input; the job keeps the steps it started with; another account's template is 404", async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const steps = { webp: { tool: 'image-convert', options: { format: 'webp', quality: 70 } }, small: { tool: 'image-resize', input: 'webp', options: { width: 32 } } };
    const template = (await tenant.client.POST('/v1/templates', { body: { name: 'Web-ready', steps } })).data!.template;

    const job = await createJobAndWait(tenant.client, { template: template.id, input: { url: url('photo.png') } }, { waitSeconds: 30, timeoutMs: 60_000 });
    expect(job).toMatchObject({ state: 'completed', tool: 'image-convert', cost: 2 });
    expect(job.steps).toMatchObject({ webp: { tool: 'image-convert', input: null, state: 'completed' }, small: { tool: 'image-resize', input: 'webp', state: 'completed' } });
    expect(Object.keys(job.result!.outputs).sort()).toEqual(['small', 'webp']);
    expect(await sharp(await download(job.result!.outputs.webp)).metadata()).toMatchObject({ format: 'webp', width: 640, height: 480 });
    expect(await sharp(await download(job.result!.outputs.small)).metadata()).toMatchObject({ format: 'webp', width: 32, height: 24 });

    // Changing or deleting the template later leaves the job as it ran.
    await tenant.client.PATCH('/v1/templates/{id}', { params: { path: { id: template.id } }, body: { steps: { other: { tool: 'image-resize', options: { width: 8 } } } } });
    const again = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
    expect(Object.keys(again.data!.job.steps!)).toEqual(['webp', 'small']);

    const stranger = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(stranger.client);
    for (const id of [template.id, 'tpl_nosuchtemplate0']) {
      const res = await stranger.client.POST('/v1/jobs', { body: { template: id, input: { url: url('photo.png') } } });
      expectError(res.response, res.error, 404, 'not_found');
    }
    expect(await creditBalance(stranger.client)).toBe(before);
    expect((await stranger.client.GET('/v1/jobs')).data!.jobs).toEqual([]);
  });

  it('Prefer: wait=10 on a small image pipeline answers 200 with the completed job and all its outputs, in one round trip', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const body = {
      input: { url: url('photo.png') },
      steps: {
        webp: { tool: 'image-convert' as const, options: { format: 'webp' as const } },
        thumb: { tool: 'image-thumbnail' as const, input: 'webp', options: { width: 64, height: 64 } },
      },
    };
    const started = Date.now();
    const { data, response } = await tenant.client.POST('/v1/jobs', { body, headers: { Prefer: 'wait=10' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=10');
    expect(Date.now() - started).toBeLessThan(10_000);
    const { job } = data as { job: Job };
    expect(response.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    expect(job).toMatchObject({ state: 'completed', progress: 100, result: { downloadUrl: null, outputFormat: null, outputSize: null } });
    expect(Object.keys(job.result!.outputs).sort()).toEqual(['thumb', 'webp']);
    expect(await sharp(await download(job.result!.outputs.thumb)).metadata()).toMatchObject({ width: 64, height: 64 });
    const polled = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
    expect(unsigned(polled.data!.job)).toEqual(unsigned(job));

    // createJobAndWait: the same in one request.
    let requests = 0;
    const counting = checkedClient({
      baseUrl: t.baseUrl,
      token: tenant.token,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const done = await createJobAndWait(counting, body, { waitSeconds: 10 });
    expect(done).toMatchObject({ state: 'completed', steps: { webp: { state: 'completed' }, thumb: { state: 'completed' } } });
    expect(requests).toBe(1);
  });

  it('cancel of a running pipeline (its first step held): every step canceled and refunded, one ledger line each; nothing runs on', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    const input = heldUrl('photo.png');
    const id = await submit(tenant, {
      input: { url: input.url },
      steps: {
        a: { tool: 'image-resize', options: { width: 100 } },
        b: { tool: 'image-convert', input: 'a', options: { format: 'webp' } },
        c: { tool: 'image-thumbnail', input: 'b', options: { width: 16 } },
      },
    });
    await until(() => input.fetched() > 0, 'the first step to fetch its input');
    const running = await waitForJob(tenant.client, id, 10_000, (job) => job.state === 'running');
    expect(running.steps).toMatchObject({ a: { state: 'running' }, b: { state: 'queued' }, c: { state: 'queued' } });

    const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
    expect(canceled.response.status).toBe(200);
    const job = canceled.data!.job;
    expect(job).toMatchObject({ id, state: 'canceled', refunded: true, result: null });
    for (const step of Object.values(job.steps!)) {
      expect(step).toMatchObject({ state: 'canceled', outputs: {} });
      if (step.error) expect(step.error.code).toBe('canceled');
    }
    const lines = await ledgerOf(tenant, id);
    expectStepRefunds(lines, job, ['a', 'b', 'c']);
    expect(lines).toHaveLength(1 + 3);
    expect(await creditBalance(tenant.client)).toBe(before);

    // The held fetch goes on; the step's work is discarded and the steps after it never start.
    input.release();
    const next = await createJobAndWait(tenant.client, { input: { url: url('photo.png') }, steps: { a: { tool: 'image-resize', options: { width: 10 } } } }, { waitSeconds: 30 });
    expect(next.state).toBe('completed');
    const after = (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job;
    expect(after).toMatchObject({
      state: 'canceled',
      refunded: true,
      steps: { a: { state: 'canceled', outputs: {} }, b: { state: 'canceled', startedAt: null }, c: { state: 'canceled', startedAt: null } },
    });
    expect(await creditBalance(tenant.client)).toBe(before - next.cost);
  });

  it('cancel of a queued pipeline (no worker): canceled, every step canceled and refunded', async () => {
    const idle = await startTestApp({ ALLOW_PRIVATE_HOSTS: '127.0.0.1' }); // WORKER_IN_PROCESS=false: nothing runs
    try {
      const tenant = await idle.newTenant({ plan: 'max', credits: 1000 });
      const { data, response } = await tenant.client.POST('/v1/jobs', {
        body: {
          input: { url: url('clip.mp4') },
          steps: { web: { tool: 'video-convert' }, poster: { tool: 'video-thumbnail' }, small: { tool: 'image-resize', input: 'poster', options: { width: 10 } } },
        },
      });
      expect(response.status).toBe(202);
      const { id } = data as JobAccepted;
      const queued = (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job;
      expect(queued).toMatchObject({ state: 'queued', progress: 0, tool: 'video-convert', queue: 'video-standard-queue' });
      for (const step of Object.values(queued.steps!)) expect(step).toMatchObject({ state: 'queued', startedAt: null, error: null, outputs: {} });

      const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
      expect(canceled.response.status).toBe(200);
      expect(canceled.data!.job).toMatchObject({ state: 'canceled', refunded: true });
      for (const step of Object.values(canceled.data!.job.steps!)) expect(step.state).toBe('canceled');
      expectStepRefunds(await ledgerOf(tenant, id), queued, ['web', 'poster', 'small']);
      expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(1000);
      // A second cancel: the job is finished.
      const again = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
      expectError(again.response, again.error, 409, 'cannot_cancel');
    } finally {
      await idle.close();
    }
  });

  it("a key lacking one step's scope is 403 insufficient_scope naming that step; nothing is debited", async () => {
    const imagesOnly = await t.newTenant({ plan: 'max', credits: 1000, key: { scopes: ['image:write'] } });
    const input = { url: url('clip.mp4') };
    const res = await imagesOnly.client.POST('/v1/jobs', {
      body: { input, steps: { img: { tool: 'image-resize', options: { width: 10 } }, vid: { tool: 'video-thumbnail' } } },
    });
    expectError(res.response, res.error, 403, 'insufficient_scope');
    expect(res.error!.error.message).toMatch(/\bvid\b/);
    expect(res.error!.error.message).toMatch(/video:write/);

    // The first step lacking a scope is the one named.
    const videoOnly = await t.newTenant({ plan: 'max', credits: 1000, key: { scopes: ['video:write'] } });
    const first = await videoOnly.client.POST('/v1/jobs', {
      body: { input, steps: { poster: { tool: 'video-thumbnail' }, small: { tool: 'image-resize', input: 'poster', options: { width: 10 } }, doc: { tool: 'pdf-render' } } },
    });
    expectError(first.response, first.error, 403, 'insufficient_scope');
    expect(first.error!.error.message).toMatch(/\bsmall\b/);
    expect(first.error!.error.message).toMatch(/image:write/);
    for (const tenant of [imagesOnly, videoOnly]) expect(await creditBalance(tenant.client)).toBe(1000);
  });

  it('a pipeline counts as one job in flight (free plan: 2)', async () => {
    const tenant = await t.newTenant({ plan: 'free', credits: 1000 });
    const input = heldUrl('photo.png');
    const single = heldUrl('photo.png');
    try {
      const pipeline = await submit(tenant, {
        input: { url: input.url },
        steps: {
          a: { tool: 'image-resize', options: { width: 10 } },
          b: { tool: 'image-resize', options: { width: 20 } },
          c: { tool: 'image-convert', options: { format: 'webp' } },
        },
      });
      const job = await submit(tenant, { tool: 'image-resize', input: { url: single.url }, options: { width: 30 } });
      const third = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: url('photo.png') }, options: { width: 40 } } });
      expectError(third.response, third.error, 429, 'concurrency_exceeded');
      input.release();
      single.release();
      for (const id of [pipeline, job]) expect((await waitForJob(tenant.client, id, 60_000)).state).toBe('completed');
    } finally {
      input.release();
      single.release();
    }
  });

  it('a pipeline sends one signed webhook when it ends, not one per step: job.completed with its steps, job.failed with error.step', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const receiver = await startReceiver();
    try {
      const steps = {
        webp: { tool: 'image-convert' as const, options: { format: 'webp' as const } },
        small: { tool: 'image-resize' as const, input: 'webp', options: { width: 16 } },
      };
      const ok = await submit(tenant, { input: { url: url('photo.png') }, steps, webhookUrl: receiver.url });
      const failed = await submit(tenant, { input: { url: url('missing.png') }, steps, webhookUrl: receiver.url });
      await receiver.waitFor(2, 60_000);
      for (const id of [ok, failed]) await waitForJob(tenant.client, id, 30_000);
      const events = receiver.received.map((hook) => {
        expect(webhookContractErrors(hook)).toEqual([]);
        return verifyWebhook(tenant.account.webhookSecret, hook.body, hook.headers) as JobWebhookEvent;
      });
      const completed = events.filter((e) => e.data.job.id === ok);
      expect(completed).toHaveLength(1);
      expect(completed[0]).toMatchObject({ type: 'job.completed', data: { job: { state: 'completed', steps: { webp: { state: 'completed' }, small: { state: 'completed' } } } } });
      expect(Object.keys(completed[0].data.job.result!.outputs).sort()).toEqual(['small', 'webp']);
      const failure = events.filter((e) => e.data.job.id === failed);
      expect(failure).toHaveLength(1);
      expect(failure[0]).toMatchObject({
        type: 'job.failed',
        data: { job: { state: 'failed', error: { step: 'webp' }, steps: { small: { error: { code: 'upstream_failed' } } } } },
      });
    } finally {
      await receiver.close();
    }
  });

  it('an idempotent pipeline: the same key and steps give the same job, other steps under that key 409', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const key = randomUUID();
    const body = { input: { url: url('photo.png') }, steps: { small: { tool: 'image-resize' as const, options: { width: 20 } } } };
    const first = await tenant.client.POST('/v1/jobs', { body, headers: { 'Idempotency-Key': key } });
    const again = await tenant.client.POST('/v1/jobs', { body, headers: { 'Idempotency-Key': key } });
    expect(first.response.status).toBe(202);
    expect(again.response.status).toBe(202);
    expect((again.data as JobAccepted).id).toBe((first.data as JobAccepted).id);
    const other = await tenant.client.POST('/v1/jobs', {
      body: { ...body, steps: { small: { tool: 'image-resize', options: { width: 30 } } } },
      headers: { 'Idempotency-Key': key },
    });
    expectError(other.response, other.error, 409, 'idempotency_conflict');
    const job = await waitForJob(tenant.client, (first.data as JobAccepted).id);
    expect(job.state).toBe('completed');
    expect(await creditBalance(tenant.client)).toBe(1000 - job.cost);
  });

  it("a template's steps need the key's scopes too: 403 naming the step", async () => {
    const owner = await t.newTenant({ plan: 'max', credits: 1000 });
    const template = (
      await owner.client.POST('/v1/templates', {
        body: { name: 'Video', steps: { poster: { tool: 'video-thumbnail' }, small: { tool: 'image-resize', input: 'poster', options: { width: 10 } } } },
      })
    ).data!.template;
    const imagesOnly = await t.newKey(owner.account.id, { scopes: ['image:write', 'templates:read'] });
    const res = await imagesOnly.client.POST('/v1/jobs', { body: { template: template.id, input: { url: url('clip.mp4') } } });
    expectError(res.response, res.error, 403, 'insufficient_scope');
    expect(res.error!.error.message).toMatch(/\bposter\b/);
    expect(await creditBalance(owner.client)).toBe(1000);
  });

  it('an uploaded file (input.fileId) feeds the steps that read the job input', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const upload = await uploadFile(tenant.client, { data: served['photo.png'].body, name: 'photo.png', type: 'image/png' });
    const job = await createJobAndWait(
      tenant.client,
      { input: { fileId: upload.id }, steps: { a: { tool: 'image-resize', options: { width: 64 } }, b: { tool: 'image-convert', options: { format: 'avif' } } } },
      { waitSeconds: 30 },
    );
    expect(job.state).toBe('completed');
    expect(await sharp(await download(job.result!.outputs.a)).metadata()).toMatchObject({ width: 64, height: 48 });
    expect(await sharp(await download(job.result!.outputs.b)).metadata()).toMatchObject({ width: 640, height: 480 });
  });

  it('GET with Prefer: wait on a running pipeline answers once its last step has completed', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const input = heldUrl('photo.png');
    const id = await submit(tenant, {
      input: { url: input.url },
      steps: { a: { tool: 'image-resize', options: { width: 40 } }, b: { tool: 'image-convert', input: 'a', options: { format: 'webp' } } },
    });
    await until(() => input.fetched() > 0, 'the first step to fetch its input');
    const answer = tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } }, headers: { Prefer: 'wait=30' } });
    input.release();
    const { data, response } = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=30');
    expect(data!.job).toMatchObject({ id, state: 'completed', steps: { a: { state: 'completed' }, b: { state: 'completed' } } });
  });

  it('the job sweeper leaves a step waiting for its input alone: it runs only once that input is ready', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const input = heldUrl('photo.png');
    const id = await submit(tenant, {
      input: { url: input.url },
      steps: { a: { tool: 'image-resize', options: { width: 40 } }, b: { tool: 'image-resize', input: 'a', options: { width: 20 } } },
    });
    await until(() => input.fetched() > 0, 'the first step to fetch its input');
    await t.app.get(ReconcileJobs).sweep();
    const during = (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job;
    expect(during.steps).toMatchObject({ a: { state: 'running' }, b: { state: 'queued', startedAt: null } });
    input.release();
    const job = await waitForJob(tenant.client, id, 30_000);
    expect(job).toMatchObject({ state: 'completed', steps: { a: { state: 'completed' }, b: { state: 'completed' } } });
    expect(Date.parse(job.steps!.b.startedAt!)).toBeGreaterThanOrEqual(Date.parse(job.steps!.a.finishedAt!));
    expect(await sharp(await download(job.result!.outputs.b)).metadata()).toMatchObject({ width: 20, height: 15 });
  });

  // Known gap (reported for issue 20): JobStep has `outputs` (files) but no result details, so a
  // media-info step's probe (a single job's `result.info`) is nowhere in a pipeline's view. Marked
  // `failing` until the contract gives a step its details: then it goes red and is made a plain `it`.
  it('a media-info step: its probe is part of the completed job', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const job = await createJobAndWait(
      tenant.client,
      { input: { url: url('clip.mp4') }, steps: { info: { tool: 'media-info' }, poster: { tool: 'video-thumbnail', options: { width: 64 } } } },
      { waitSeconds: 60 },
    );
    expect(job).toMatchObject({ state: 'completed', cost: 1, steps: { info: { state: 'completed', cost: 0 }, poster: { state: 'completed' } } });
    // A single media-info job answers result.info; a pipeline step's result is the same.
    expect(job.steps!.info.result!.info).toBeDefined();
    expect(JSON.stringify(job.steps!.info.result!.info)).toMatch(/"width":1280/);
    expect(job.steps!.poster.result).toMatchObject({ status: 'converted', outputFormat: expect.any(String) });
  });

  it('cancel after some steps completed: they keep their files, the others are canceled and refunded; refunded stays false', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const before = await creditBalance(tenant.client);
    // Each step reading the job input fetches it: the first fetch is served, the next one held.
    const input = heldUrl('photo.png', { serveFirst: true });
    const id = await submit(tenant, {
      input: { url: input.url },
      steps: {
        p: { tool: 'image-resize', options: { width: 40 } },
        p2: { tool: 'image-convert', input: 'p', options: { format: 'webp' } },
        q: { tool: 'image-resize', options: { width: 30 } },
        q2: { tool: 'image-convert', input: 'q', options: { format: 'webp' } },
      },
    });
    await until(() => input.fetched() > 0, 'the second root step to fetch its input');
    const [done, held] =
      (await waitForJob(tenant.client, id, 30_000, (job) => job.steps!.p2.state === 'completed' || job.steps!.q2.state === 'completed')).steps!.p2.state === 'completed'
        ? ['p', 'q']
        : ['q', 'p'];
    const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
    expect(canceled.response.status).toBe(200);
    const job = canceled.data!.job;
    expect(job).toMatchObject({ state: 'canceled', refunded: false, result: null });
    for (const name of [done, `${done}2`]) expect(job.steps![name]).toMatchObject({ state: 'completed', outputs: { output: expect.any(Object) } });
    for (const name of [held, `${held}2`]) expect(job.steps![name]).toMatchObject({ state: 'canceled', outputs: {} });
    expect(await sharp(await download(job.steps![`${done}2`].outputs.output)).metadata()).toMatchObject({ format: 'webp' });
    const lines = await ledgerOf(tenant, id);
    expectStepRefunds(lines, job, [held, `${held}2`]);
    expect(lines).toHaveLength(3);
    expect(await creditBalance(tenant.client)).toBe(before - job.steps![done].cost - job.steps![`${done}2`].cost);
    input.release();
  });

  it("credits and a key's spend cap are checked against the steps' sum", async () => {
    const steps = { web: { tool: 'video-convert' as const }, poster: { tool: 'video-thumbnail' as const }, storyboard: { tool: 'video-storyboard' as const } };
    const costs = await toolCosts(await t.newTenant());
    const sum = costs['video-convert'] + costs['video-thumbnail'] + costs['video-storyboard'];
    const poor = await t.newTenant({ plan: 'max', credits: sum - 1 });
    const refused = await poor.client.POST('/v1/jobs', { body: { input: { url: url('clip.mp4') }, steps } });
    expectError(refused.response, refused.error, 402, 'insufficient_credits');
    const rich = await t.newTenant({ plan: 'max', credits: 1000 });
    const capped = await t.newKey(rich.account.id, { scopes: ['video:write'], dailyCap: sum - 1 });
    const over = await capped.client.POST('/v1/jobs', { body: { input: { url: url('clip.mp4') }, steps } });
    expectError(over.response, over.error, 402, 'spend_cap_reached');
    expect(await creditBalance(rich.client)).toBe(1000);
    expect(await creditBalance(poor.client)).toBe(sum - 1);
  });

  it('a step reads the kind its input step writes as those options decide: a PNG waveform is an image', async () => {
    const tenant = await t.newTenant({ plan: 'max', credits: 1000 });
    const job = await createJobAndWait(
      tenant.client,
      {
        input: { url: url('tone.wav') },
        steps: { wave: { tool: 'audio-waveform', options: { format: 'png', width: 400, height: 100 } }, small: { tool: 'image-resize', input: 'wave', options: { width: 100 } } },
      },
      { waitSeconds: 30 },
    );
    expect(job).toMatchObject({ state: 'completed', tool: 'audio-waveform', queue: 'audio-standard-queue' });
    expect(await sharp(await download(job.result!.outputs.small)).metadata()).toMatchObject({ format: 'png', width: 100, height: 25 });
  });
});
