import { Client } from 'pg';
import sharp from 'sharp';
import type { ErrorCode, JobAccepted, JobQuote, JobRequest } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { expectError } from '../../support/expect-error';
import { type JobsApp, startJobsApp, waitForJob } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { migrate } from '../../../src/database/migrations/migrate';
import { dropDatabase } from '../../support/databases';
import { TEST_DATABASE_URL } from '../../support/env';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

/**
 * POST /v1/jobs?dryRun=true: the price and the admission's verdict of a body, from the same code
 * path as the real submission, with nothing written.
 */
const quote = async (tenant: Tenant, body: JobRequest, headers: Record<string, string> = {}) =>
  tenant.client.POST('/v1/jobs', { params: { query: { dryRun: true } }, body, headers });

const quoted = (data: unknown) => (data as JobQuote).quote;

/**
 * The estimate reads the whole deployment's history, and the run's shared database holds the
 * jobs of every other suite: these suites get a database of their own, so "no history" is true.
 */
const QUOTE_DATABASE_URL = `${TEST_DATABASE_URL}_quote`;
beforeAll(() => migrate(QUOTE_DATABASE_URL));
afterAll(() => dropDatabase(QUOTE_DATABASE_URL));

describe('job quotes (dryRun): the admission without its writes', () => {
  let t: TestApp;
  let db: Client;
  // Never fetched: no worker runs here, and a quote fetches nothing.
  const image = { url: 'http://127.0.0.1:9/never-fetched.png' };
  const video = { url: 'http://127.0.0.1:9/never-fetched.mp4' };

  beforeAll(async () => {
    t = await startTestApp({ WORKER_IN_PROCESS: 'false', DATABASE_URL: QUOTE_DATABASE_URL });
    db = new Client({ connectionString: QUOTE_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  // Read from the database, not GET /v1/account: the free plan's 5 requests a second are the tests' own.
  const balance = async (tenant: Tenant) => Number((await db.query('SELECT credit_balance FROM accounts WHERE id = $1', [tenant.account.id])).rows[0].credit_balance);

  /** Every row a submission writes, for the account and its key. */
  async function written(tenant: Tenant) {
    const count = async (sql: string, id: string) => (await db.query(sql, [id])).rows[0].n as number;
    return {
      jobs: await count('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', tenant.account.id),
      ledger: await count('SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1', tenant.account.id),
      idempotency: await count('SELECT count(*)::int AS n FROM idempotency_records WHERE api_key_id = $1', tenant.keyId),
      spend: await count('SELECT count(*)::int AS n FROM spend_counters WHERE api_key_id = $1', tenant.keyId),
      balance: await balance(tenant),
    };
  }

  /** The quote of `body`, then the real submission of it: the quote's charge is what the submission debits. */
  async function quoteThenSubmit(tenant: Tenant, body: JobRequest): Promise<{ charge: number; debited: number; quote: JobQuote['quote'] }> {
    const before = await written(tenant);
    const q = await quote(tenant, body, { 'Idempotency-Key': `quote-${Math.random()}` });
    expect(q.response.status).toBe(200);
    expect(await written(tenant)).toEqual(before);
    const real = await tenant.client.POST('/v1/jobs', { body });
    expect(real.response.status).toBe(202);
    const debit = await db.query(`SELECT delta FROM credit_ledger WHERE job_id = $1 AND reason = 'job_debit'`, [(real.data as JobAccepted).id]);
    expect(before.balance - (await balance(tenant))).toBe(-debit.rows[0].delta);
    return { charge: quoted(q.data).charge, debited: -debit.rows[0].delta, quote: quoted(q.data) };
  }

  it('a single tool: the charge is the real debit, and the quote wrote nothing', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100, key: { dailyCap: 50 } });
    const { charge, debited, quote: q } = await quoteThenSubmit(tenant, { tool: 'video-convert', input: video });
    expect(charge).toBe(debited);
    expect(debited).toBe(5);
    expect(q).toEqual({ charge: 5, steps: {}, affordable: true, refusal: null, estimate: { seconds: null } });
  });

  it('a pipeline: the charge is the steps’ sum the real job debits, with each step’s price', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100 });
    const body = { input: video, steps: { web: { tool: 'video-convert' }, poster: { tool: 'video-thumbnail' }, sound: { tool: 'audio-compress' } } } as JobRequest;
    const { charge, debited, quote: q } = await quoteThenSubmit(tenant, body);
    expect(charge).toBe(debited);
    expect(debited).toBe(8);
    expect(q.steps).toEqual({ web: { tool: 'video-convert', charge: 5 }, poster: { tool: 'video-thumbnail', charge: 1 }, sound: { tool: 'audio-compress', charge: 2 } });
    expect(Object.keys(q.steps)).toEqual(['web', 'poster', 'sound']);
  });

  it('a template: the charge is the real debit', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100 });
    const steps = { webp: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'webp', options: { width: 16 } } };
    const template = (await tenant.client.POST('/v1/templates', { body: { name: 'Quoted', steps } as never })).data!.template;
    const { charge, debited, quote: q } = await quoteThenSubmit(tenant, { template: template.id, input: image });
    expect(charge).toBe(debited);
    expect(debited).toBe(2);
    expect(q.steps).toEqual({ webp: { tool: 'image-convert', charge: 1 }, small: { tool: 'image-resize', charge: 1 } });
  });

  it('takes no in-flight slot: quotes past the plan’s limit leave every slot to real jobs', async () => {
    const tenant = await t.newTenant({ plan: 'free', credits: 100 });
    for (let i = 0; i < 3; i++) expect(quoted((await quote(tenant, { tool: 'image-resize', input: image, options: { width: 8 } })).data).affordable).toBe(true);
    for (let i = 0; i < 2; i++) expect((await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: image, options: { width: 8 } } })).response.status).toBe(202);
  });

  /** The refusal the quote gives is the error the real submission gives, code and message. */
  async function sameRefusal(tenant: Tenant, body: JobRequest, status: number, code: ErrorCode) {
    const before = await written(tenant);
    const q = await quote(tenant, body);
    expect(q.response.status).toBe(200);
    expect(await written(tenant)).toEqual(before);
    const real = await tenant.client.POST('/v1/jobs', { body });
    expectError(real.response, real.error, status, code);
    expect(quoted(q.data)).toMatchObject({ affordable: false, refusal: { code, message: real.error!.error.message } });
    return quoted(q.data);
  }

  it('unaffordable: 200 affordable false with insufficient_credits, the charge still given', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 3 });
    expect((await sameRefusal(tenant, { tool: 'video-convert', input: video }, 402, 'insufficient_credits')).charge).toBe(5);
  });

  it('over the key’s spend cap: spend_cap_reached', async () => {
    const tenant = await t.newTenant({ plan: 'bench', credits: 100, key: { dailyCap: 3 } });
    expect((await tenant.client.POST('/v1/jobs', { body: { tool: 'audio-compress', input: video } })).response.status).toBe(202);
    await sameRefusal(tenant, { tool: 'audio-compress', input: video }, 402, 'spend_cap_reached');
  });

  it('at the plan’s in-flight limit: concurrency_exceeded', async () => {
    const tenant = await t.newTenant({ plan: 'free', credits: 100 });
    for (let i = 0; i < 2; i++) expect((await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: image, options: { width: 8 } } })).response.status).toBe(202);
    await sameRefusal(tenant, { tool: 'image-resize', input: image, options: { width: 8 } }, 429, 'concurrency_exceeded');
  });

  it('validation, scope and lookup errors: the same status and code as the real submission', async () => {
    // Max: 50 requests a second, so the plan's rate limit does not answer first.
    const tenant = await t.newTenant({ plan: 'max', credits: 100, key: { scopes: ['image:write', 'templates:read', 'templates:write'] } });
    const free = await t.newTenant({ plan: 'free', credits: 100 });
    const other = await t.newTenant({ plan: 'free', credits: 100 });
    const foreign = (await other.client.POST('/v1/templates', { body: { name: 'Theirs', steps: { small: { tool: 'image-resize', options: { width: 10 } } } } })).data!.template;
    const cases: [JobRequest, number, ErrorCode][] = [
      [{ tool: 'no-such-tool', input: image } as never, 400, 'unknown_tool'],
      [{ tool: 'image-resize', input: {} } as never, 400, 'missing_input'],
      [{ tool: 'image-resize', input: image, options: { width: -1 } } as never, 400, 'validation_failed'],
      [{ tool: 'video-convert', input: video }, 403, 'insufficient_scope'],
      [{ input: image, steps: { a: { tool: 'image-resize', input: 'b' } } }, 400, 'invalid_pipeline'],
      [{ template: foreign.id, input: image }, 404, 'not_found'],
      [{ tool: 'image-resize', input: { fileId: 'upl_doesnotexist' } } as never, 400, 'validation_failed'],
    ];
    const webhookOnFree = { tool: 'image-resize', input: image, webhookUrl: 'http://127.0.0.1:9/hook' } as never;
    for (const [who, body, status, code] of [...cases.map((c) => [tenant, ...c] as const), [free, webhookOnFree, 403, 'plan_not_eligible' as ErrorCode] as const]) {
      const q = await quote(who, body);
      expectError(q.response, q.error, status, code);
      const real = await who.client.POST('/v1/jobs', { body });
      expectError(real.response, real.error, status, code);
    }
    expect((await written(tenant)).jobs).toBe(0);
    expect((await written(free)).jobs).toBe(0);
  });
});

describe('job quotes: the run-time estimate from completed jobs', () => {
  let jobs: JobsApp;
  let tenant: Tenant;

  beforeAll(async () => {
    jobs = await startJobsApp('quote', { DATABASE_URL: QUOTE_DATABASE_URL });
    tenant = await jobs.t.newTenant({ plan: 'bench', credits: 1000 });
  });
  afterAll(() => jobs.close());

  async function upload(data: Buffer, name: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
    const res = await contractFetch(`${jobs.t.baseUrl}/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${tenant.token}` }, body: form });
    expect(res.status).toBe(201);
    return (await res.json()).upload.id;
  }

  const estimate = async (body: JobRequest) => quoted((await quote(tenant, body)).data).estimate.seconds;

  it('null with no history; the median of similar-sized runs once some have completed', async () => {
    const small = await upload(await makePng(64, 48), 'small.png');
    const byUrl = { tool: 'image-resize', input: { url: jobs.files.url('icon.png') }, options: { width: 16 } } as JobRequest;
    const byFile = { tool: 'image-resize', input: { fileId: small }, options: { width: 16 } } as JobRequest;
    expect(await estimate(byUrl)).toBeNull();
    expect(await estimate(byFile)).toBeNull();

    const ran: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await tenant.client.POST('/v1/jobs', { body: byFile });
      const job = await waitForJob(tenant.client, (data as JobAccepted).id);
      expect(job.state).toBe('completed');
      ran.push((Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)) / 1000);
    }
    // The median of the three runs, as the jobs report their times.
    const median = [...ran].sort((a, b) => a - b)[1];
    expect(await estimate(byFile)).toBeCloseTo(median, 3);
    // A URL's size is unknown (nothing is fetched): every size counts.
    expect(await estimate(byUrl)).toBeCloseTo(median, 3);
    // An input over twice the size has no similar history yet.
    const noisy = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(2 * (await makePng(64, 48)).length);
    const large = await upload(noisy, 'large.png');
    expect(await estimate({ ...byFile, input: { fileId: large } })).toBeNull();
    // A pipeline with a tool that never ran has no estimate.
    expect(
      await estimate({
        input: { fileId: small },
        steps: { small: { tool: 'image-resize', options: { width: 16 } }, webp: { tool: 'image-convert', options: { format: 'webp' } } },
      }),
    ).toBeNull();
  });
});
