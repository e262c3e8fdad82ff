import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { countingServer, type CountingServer } from '../../support/jobs';
import { makeDocx } from '../../support/document-fixtures';
import { makePng } from '../../support/media-fixtures';
import { Client } from 'pg';
import { TEST_DATABASE_URL } from '../../support/env';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

jest.setTimeout(120_000);

/**
 * Issue 20 item 1, the lifecycle of jobs with steps: a chain runs in order (each step reading the
 * output of the one before), a failing step fails its readers and the job, and every step that did
 * not complete gives its credits back — one ledger line of the job, naming the step.
 */
describe('jobs with steps: the lifecycle', () => {
  let t: TestApp;
  let tenant: Tenant;
  let files: CountingServer;
  let dir: string;
  let image: Buffer;
  let longDocument: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-steps-'));
    image = await makePng(640, 480);
    // LibreOffice lays this out for tens of seconds (80,000 paragraphs: ~50 s on a quiet machine).
    longDocument = await makeDocx(Array.from({ length: 80_000 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}`));
    files = await countingServer('127.0.0.1', (req, res) => {
      if (req.url === '/long.docx') {
        res.writeHead(200, { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }).end(longDocument);
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(image.length) }).end(image);
    });
    // A run's heartbeat every 1.5 s: a canceled step's run notices within that.
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', WORKER_LOCK_DURATION_MS: '3000', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ plan: 'max', credits: 100 });
  });
  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function waitFinal(id: string): Promise<Job> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { data, response } = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } }, headers: { Prefer: 'wait=20' } });
      if (!data) throw new Error(`GET /v1/jobs/${id}: ${response.status}`);
      if (['completed', 'failed', 'canceled'].includes(data.job.state)) return data.job;
      if (Date.now() > deadline) throw new Error(`job still ${data.job.state}: ${JSON.stringify(data.job.steps)}`);
    }
  }

  it('a chain runs step after step; the result holds every step output, each decodable', async () => {
    const { data, response } = await tenant.client.POST('/v1/jobs', {
      body: {
        input: { url: `${files.origin}/photo.png` },
        steps: {
          webp: { tool: 'image-convert', options: { format: 'webp' } },
          small: { tool: 'image-resize', input: 'webp', options: { width: 160 } },
          thumb: { tool: 'image-thumbnail', options: { width: 64, height: 64 } },
        },
      },
    });
    expect(response.status).toBe(202);
    const job = await waitFinal((data as JobAccepted).id);
    expect(job).toMatchObject({ state: 'completed', progress: 100, tool: 'image-convert', error: null, refunded: false });
    expect(Object.keys(job.steps!)).toEqual(['webp', 'small', 'thumb']);
    expect(job.steps!.small).toMatchObject({ tool: 'image-resize', input: 'webp', state: 'completed' });
    expect(Object.keys(job.result!.outputs).sort()).toEqual(['small', 'thumb', 'webp']);
    expect(job.result).toMatchObject({ downloadUrl: null, outputFormat: null, outputSize: null });
    const small = await sharp(Buffer.from(await (await contractFetch(job.result!.outputs.small.downloadUrl!)).arrayBuffer())).metadata();
    // The resize read the webp step's output, not the PNG.
    expect(small).toMatchObject({ format: 'webp', width: 160, height: 120 });
    expect(job.cost).toBe(Object.values(job.steps!).reduce((sum, s) => sum + s.cost, 0));
  });

  it('a failing step fails its readers, and the job; only the steps that did not complete are refunded', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: {
        input: { url: `${files.origin}/photo.png` },
        steps: {
          info: { tool: 'media-info' },
          // A PNG is no video: this step fails when it runs (a URL's kind is known only then).
          poster: { tool: 'video-thumbnail' },
          small: { tool: 'image-resize', input: 'poster', options: { width: 10 } },
        },
      },
    });
    const job = await waitFinal((data as JobAccepted).id);
    expect(job.state).toBe('failed');
    expect(job.error).toMatchObject({ code: 'unsupported_input', step: 'poster' });
    expect(job.steps!.small).toMatchObject({ state: 'failed', error: { code: 'upstream_failed' }, startedAt: null });
    const ledger = (await tenant.client.GET('/v1/account/ledger')).data!.entries.filter((e) => e.jobId === job.id);
    const refunds = ledger.filter((e) => e.reason === 'job_refund');
    expect(refunds.map((e) => [e.step, e.amount]).sort()).toEqual(
      [
        ['poster', job.steps!.poster.cost],
        ['small', job.steps!.small.cost],
      ].sort(),
    );
    const after = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    expect(before - after).toBe(job.steps!.info.cost);
  });
  it('hostile step sets are refused with a code, charge nothing and leave no job', async () => {
    const before = (await tenant.client.GET('/v1/account')).data!.account.creditBalance;
    const input = { url: `${files.origin}/photo.png` };
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, { tool: 'image-resize', options: { width: 10 } }]));
    const cases: [unknown, number, string][] = [
      [{ input, steps: {} }, 400, 'invalid_pipeline'],
      [{ input, steps: { a: null } }, 400, 'validation_failed'],
      [{ input, steps: eleven }, 400, 'invalid_pipeline'],
      [JSON.parse(`{"input":{"url":"${input.url}"},"steps":{"__proto__":{"tool":"image-resize","options":{"width":10}}}}`), 400, 'invalid_json'], // refused by the JSON parser itself
      [{ input, steps: { a: { tool: 'image-resize', input: 'constructor', options: { width: 10 } } } }, 400, 'invalid_pipeline'],
      [{ input, steps: { a: { tool: 'image-resize', options: { width: 'wide' } } } }, 400, 'validation_failed'],
      [{ input, steps: { a: { tool: 'image-blur' } } }, 400, 'invalid_pipeline'],
      [{ input, tool: 'image-resize', steps: { a: { tool: 'image-resize', options: { width: 10 } } } }, 400, 'invalid_pipeline'],
      [{ input, template: 'tpl_0000000000000000', steps: { a: { tool: 'image-resize', options: { width: 10 } } } }, 400, 'invalid_pipeline'],
      [{ input, template: 'tpl_0000000000000000' }, 404, 'not_found'],
      [{ steps: { a: { tool: 'image-resize', options: { width: 10 } } } }, 400, 'missing_input'],
      [{ input: { url: 'ftp://x/y.png' }, steps: { a: { tool: 'image-resize', options: { width: 10 } } } }, 400, 'validation_failed'],
    ];
    for (const [body, status, code] of cases) {
      const res = await fetch(`${t.baseUrl}/v1/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { error: { code: string; message: string } };
      expect([JSON.stringify(body).slice(0, 80), res.status, answer.error?.code]).toEqual([JSON.stringify(body).slice(0, 80), status, code]);
      expect(answer.error.message).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await tenant.client.GET('/v1/account')).data!.account.creditBalance).toBe(before);
  });
  it("another account's key cannot read or cancel a pipeline, and the owner cannot reach its steps on their own", async () => {
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: { input: { url: `${files.origin}/photo.png` }, steps: { a: { tool: 'image-resize', options: { width: 8 } } } },
      headers: { Prefer: 'wait=20' },
    });
    const job = (data as { job: Job }).job;
    expect(job.state).toBe('completed');
    const stranger = await t.newTenant({ plan: 'max', credits: 10 });
    expect((await stranger.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } })).response.status).toBe(404);
    expect((await stranger.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: job.id } } })).response.status).toBe(404);
    expect((await stranger.client.GET('/v1/jobs')).data!.jobs).toEqual([]);
    // A step is a job row of the same key, but only its pipeline is an API object.
    const db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    const [{ id: stepId }] = (await db.query<{ id: string }>('SELECT id FROM jobs WHERE pipeline_id = $1', [job.id])).rows;
    await db.end();
    expect((await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: stepId } } })).response.status).toBe(404);
    expect((await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: stepId } } })).response.status).toBe(404);
  });

  it('cancel stops a running step: its LibreOffice is killed within seconds, not left to finish', async () => {
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: {
        input: { url: `${files.origin}/long.docx` },
        steps: { pdf: { tool: 'document-convert' }, page: { tool: 'pdf-render', input: 'pdf', options: { page: 1 } } },
      },
    });
    const id = (data as JobAccepted).id;
    let converters: string[] = [];
    await until(async () => {
      converters = await processesMentioning('soffice', `dropline-runs-${process.pid}-`); // this app's run directories
      return converters.length > 0;
    }, 'LibreOffice to run the step');
    const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } });
    expect(canceled.data!.job).toMatchObject({ state: 'canceled', refunded: true, steps: { pdf: { state: 'canceled' }, page: { state: 'canceled' } } });
    const pids = converters.map((line) => line.split(':')[0]);
    const stoppedAt = Date.now();
    // Its run's next heartbeat (≤ 1.5 s) finds the step canceled and kills the process group; the
    // conversion itself would have gone on for tens of seconds.
    await until(
      async () => (await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')))).every((c) => !c.includes('soffice')),
      'LibreOffice to be killed',
      15_000,
    );
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    const job = (await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id } } })).data!.job;
    expect(job.steps!.pdf).toMatchObject({ state: 'canceled', outputs: {} });
  });
});

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Processes whose command line mentions every one of `texts`. */
async function processesMentioning(...texts: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (texts.every((t) => cmdline.includes(t))) found.push(`${pid}: ${cmdline.replace(/\0/g, ' ')}`);
  }
  return found;
}
