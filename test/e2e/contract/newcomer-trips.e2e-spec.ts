import { createClient } from '@dropline/client';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { contractFetch } from '../../support/contract-check';
import { makePng, serveFiles } from '../../support/media-fixtures';
import { tus, tusMetadata } from '../../support/tus';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

type LogLine = Record<string, unknown>;

/** Polls `probe` until it returns something other than undefined; throws after `timeoutMs`. */
async function eventually<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What a newcomer trips on in the first hour: the answer of `Prefer: wait` read like the 202, pipeline
 * files that do not share a name, media-info's status, the public tool catalogue, a drop themed at
 * creation, another tus version, and logs and metrics that name a pipeline once, by its id.
 */
describe('a newcomer does not trip', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-newcomer-'));
    files = await serveFiles({ 'photo.png': await makePng(64, 48) });
    const log = new PassThrough();
    let partial = '';
    log.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
    });
    t = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOG_LEVEL: 'info' }, '127.0.0.1', { logStream: log });
    tenant = await t.newTenant({ plan: 'max', credits: 1000 });
  });
  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const metric = async (name: string, labels: string): Promise<number> => {
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('Prefer: wait — the 200 carries id, state and statusUrl at the top level, like the 202', async () => {
    const { data, response } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: files.url('photo.png') }, options: { width: 16 } },
      headers: { Prefer: 'wait=60' },
    });
    expect(response.status).toBe(200);
    if (!data || !('job' in data)) throw new Error('no job in the 200');
    expect(data.job.state).toBe('completed');
    expect(data).toMatchObject({ id: data.job.id, state: 'completed', statusUrl: `/v1/jobs/${data.job.id}` });
  });

  it('HEAD /v1/files/{key} is an operation of the contract: the headers of a signed URL without the body', async () => {
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: files.url('photo.png') }, options: { width: 16 } },
      headers: { Prefer: 'wait=60' },
    });
    if (!data || !('job' in data)) throw new Error('no job in the 200');
    const contract = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
    expect(contract.paths['/v1/files/{key}'].head).toMatchObject({ operationId: 'headFile', security: [] });
    const url = data.job.result!.downloadUrl!;
    const get = await contractFetch(url);
    const size = (await get.arrayBuffer()).byteLength;
    const head = await contractFetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(size);
    expect(head.headers.get('content-disposition')).toBe(get.headers.get('content-disposition'));
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(await head.text()).toBe('');
    const altered = new URL(url);
    altered.searchParams.set('sig', 'A'.repeat(43));
    expect((await contractFetch(altered, { method: 'HEAD' })).status).toBe(403);
  });

  it('a pipeline: one file name per step, logged under its own id, counted once in dropline_jobs_total', async () => {
    const labels = (tool: string) => `tool="${tool}",state="completed"`;
    const before = { pipeline: await metric('dropline_jobs_total', labels('pipeline')), resize: await metric('dropline_jobs_total', labels('image-resize')) };
    const { data, response } = await tenant.client.POST('/v1/jobs', {
      body: {
        input: { url: files.url('photo.png') },
        steps: { small: { tool: 'image-resize', options: { width: 32 } }, thumb: { tool: 'image-resize', options: { width: 16 } } },
      },
      headers: { Prefer: 'wait=60' },
    });
    expect(response.status).toBe(200);
    if (!data || !('job' in data)) throw new Error('no job in the 200');
    const job = data.job;
    expect(job.state).toBe('completed');
    const names = Object.fromEntries(Object.entries(job.result!.outputs).map(([name, out]) => [name, out.fileName]));
    expect(names).toEqual({ small: 'photo-small.png', thumb: 'photo-thumb.png' });

    // The pipeline's end is counted after its final write: wait for it, then nothing else moved.
    await eventually('the pipeline counted', async () => ((await metric('dropline_jobs_total', labels('pipeline'))) === before.pipeline + 1 ? true : undefined));
    expect(await metric('dropline_jobs_total', labels('image-resize'))).toBe(before.resize);

    const started = await eventually('both steps logged', () => {
      const found = lines.filter((l) => l.msg === 'Job started' && l.jobId === job.id);
      return found.length === 2 ? found : undefined;
    });
    expect(started.map((l) => l.step).sort()).toEqual(['small', 'thumb']);
  });

  it('media-info reports `done`, not `converted`: it converts nothing', async () => {
    const { data, response } = await tenant.client.POST('/v1/jobs', { body: { tool: 'media-info', input: { url: files.url('photo.png') } }, headers: { Prefer: 'wait=60' } });
    expect(response.status).toBe(200);
    if (!data || !('job' in data)) throw new Error('no job in the 200');
    expect(data.job.result).toMatchObject({ status: 'done', downloadUrl: null });
  });

  it('GET /v1/tools needs no API key: it is the catalogue', async () => {
    const { data, response } = await t.client().GET('/v1/tools');
    expect(response.status).toBe(200);
    expect(data!.tools.map((tool) => tool.slug)).toContain('image-resize');
  });

  it('a drop takes its emoji and accent colour at creation, and its page shows them', async () => {
    const slug = uniqueSlug('themed');
    const { data, response } = await tenant.client.POST('/v1/drops', { body: { name: 'Themed', slug, emoji: '✿', accentColor: '#3366FF' } });
    expect(response.status).toBe(201);
    expect(data!.drop).toMatchObject({ emoji: '✿', accentColor: '#3366FF' });
    const page = await (await fetch(`${t.baseUrl}/d/${slug}`)).text();
    expect(page).toContain('✿');
    expect(page.toLowerCase()).toContain('#3366ff');
  });

  it('a tus request of another protocol version is 412 tus_version_unsupported, naming the version spoken', async () => {
    const slug = uniqueSlug('tusv');
    expect((await tenant.client.POST('/v1/drops', { body: { name: 'tus', slug } })).response.status).toBe(201);
    // Everything else as a tus 1.0 client would send it.
    const headers = { 'Tus-Resumable': '0.2.2', 'Upload-Length': '5', 'Upload-Metadata': tusMetadata({ filename: 'hello.txt' }) };
    const answers = [
      await tus(`${t.baseUrl}/v1/uploads/tus`, 'POST', { ...headers, Authorization: `Bearer ${tenant.token}` }),
      await tus(`${t.baseUrl}/v1/public/drops/${slug}/tus`, 'POST', headers),
      // The version is judged first: a 0.2.2 client's metadata is not ours to judge.
      await tus(`${t.baseUrl}/v1/public/drops/${slug}/tus`, 'POST', { 'Tus-Resumable': '0.2.2', 'Upload-Length': '5' }),
    ];
    expect(answers.map((res) => ({ status: res.status, code: res.body?.error?.code }))).toEqual([
      { status: 412, code: 'tus_version_unsupported' },
      { status: 412, code: 'tus_version_unsupported' },
      { status: 412, code: 'tus_version_unsupported' },
    ]);
    for (const res of answers) expect(res.headers.get('tus-version')).toBe('1.0.0');
  });

  it("a request's log line names the account and the key that sent it", async () => {
    const reqId = `newcomer-${Date.now()}`;
    const { response } = await tenant.client.GET('/v1/account', { headers: { 'x-request-id': reqId } });
    expect(response.status).toBe(200);
    const line = await eventually('the request line', () => lines.find((l) => l.reqId === reqId && l.msg === 'GET /v1/account 200'));
    expect(line).toMatchObject({ accountId: tenant.account.id, keyId: tenant.keyId });
  });

  it('createClient without an absolute baseUrl throws at once, saying what it needs', () => {
    expect(() => createClient({ apiKey: 'dl_live_x' } as never)).toThrow(/createClient needs baseUrl/);
    expect(() => createClient({ baseUrl: 'dropline.example.com' })).toThrow(/createClient needs baseUrl.*got "dropline\.example\.com"/);
    expect(() => createClient({ baseUrl: t.baseUrl })).not.toThrow();
  });
});
