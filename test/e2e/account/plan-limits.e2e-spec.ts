import { PLAN_LIMITS, MB } from '../../../src/config/plans';
import { expectError } from '../../support/expect-error';
import { postForm, removeDir, sendStream, streamedForm, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import type { DroplineClient } from '../../../generated/client';
import type { JobAccepted } from '../../../generated/types';

/**
 * The paid plans' limits (src/config/plans.ts, docs/decisions.md §3): upload size, jobs in flight
 * and requests per second per key. No worker runs here, so accepted jobs stay queued and hold
 * their slot.
 */
describe('pro and max plan limits', () => {
  let t: TestApp;
  let dir: string;
  const input = { url: 'http://127.0.0.1:9/never-fetched.png' };

  beforeAll(async () => {
    dir = await tempStorageDir('plans');
    t = await startTestApp({ STORAGE_DIR: dir, WORKER_IN_PROCESS: 'false' });
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  describe('upload size', () => {
    const justOver = PLAN_LIMITS.free.maxFileSizeMB * MB + 1;

    /** A drop with the plan's default maxFileSizeMB, and a file one byte over the free limit streamed to it. */
    async function sendJustOver(owner: Tenant) {
      const slug = uniqueSlug('plan');
      const created = await owner.client.POST('/v1/drops', { body: { name: 'Plan limit', slug } });
      expect(created.response.status).toBe(201);
      const { body, contentType } = streamedForm({ fields: { senderName: 'Big' }, fileName: 'big.bin', size: justOver });
      const res = await sendStream(t, slug, body, contentType);
      body.destroy(); // a sender stops when the answer comes
      return { res, drop: created.data!.drop, slug };
    }

    it('a file just over 25 MB is refused on free (413) and accepted on pro, every byte stored', async () => {
      const free = await t.newTenant({ plan: 'free' });
      const refused = await sendJustOver(free);
      expect(refused.drop.maxFileSizeMB).toBe(25);
      expect(refused.res.status).toBe(413);
      expect(refused.res.body).toMatchObject({ error: { code: 'file_too_large' } });
      expect((await free.client.GET('/v1/drops/{slug}', { params: { path: { slug: refused.slug } } })).data!.drop).toMatchObject({ submissionCount: 0, totalBytes: 0 });

      const pro = await t.newTenant({ plan: 'pro' });
      const accepted = await sendJustOver(pro);
      expect(accepted.drop.maxFileSizeMB).toBe(PLAN_LIMITS.pro.maxFileSizeMB);
      expect(accepted.res.status).toBe(201);
      expect(accepted.res.body.submission).toMatchObject({ fileName: 'big.bin', fileSize: justOver });
      expect((await pro.client.GET('/v1/drops/{slug}', { params: { path: { slug: accepted.slug } } })).data!.drop).toMatchObject({ submissionCount: 1, totalBytes: justOver });
    }, 120_000);

    it('POST /v1/uploads: the same file is refused on free (413) and accepted on pro and max', async () => {
      const uploadJustOver = (owner: Tenant) => {
        const { body, contentType } = streamedForm({ fileName: 'big.bin', size: justOver });
        return postForm(`${t.baseUrl}/v1/uploads`, { body: body as any, duplex: 'half', headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType } });
      };
      const free = await uploadJustOver(await t.newTenant({ plan: 'free' }));
      expectError({ status: free.status! }, free.body, 413, 'file_too_large');
      for (const plan of ['pro', 'max'] as const) {
        const res = await uploadJustOver(await t.newTenant({ plan }));
        expect({ plan, status: res.status }).toEqual({ plan, status: 201 });
        expect(res.body.upload).toMatchObject({ fileName: 'big.bin', fileSize: justOver });
      }
    }, 120_000);

    it('a drop may not exceed its plan limit: 26 MB is refused on free, 500 accepted on pro and 2048 on max', async () => {
      const free = await t.newTenant({ plan: 'free' });
      const tooBig = await free.client.POST('/v1/drops', { body: { name: 'x', maxFileSizeMB: 26 } });
      expectError(tooBig.response, tooBig.error, 400, 'validation_failed');
      const pro = await t.newTenant({ plan: 'pro' });
      expect((await pro.client.POST('/v1/drops', { body: { name: 'x', maxFileSizeMB: 500 } })).response.status).toBe(201);
      const proOver = await pro.client.POST('/v1/drops', { body: { name: 'x', maxFileSizeMB: 501 } });
      expectError(proOver.response, proOver.error, 400, 'validation_failed');
      const max = await t.newTenant({ plan: 'max' });
      expect((await max.client.POST('/v1/drops', { body: { name: 'x', maxFileSizeMB: 2048 } })).response.status).toBe(201);
    });
  });

  describe('jobs in flight', () => {
    const submit = (client: DroplineClient) => client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 10 } } });

    it.each([
      ['pro', PLAN_LIMITS.pro.inFlightJobs],
      ['max', PLAN_LIMITS.max.inFlightJobs],
    ] as const)(
      '%s: %i queued jobs are accepted, the next is 429 concurrency_exceeded until one ends',
      async (plan, limit) => {
        expect(limit).toBe(plan === 'pro' ? 10 : 50);
        const tenant = await t.newTenant({ plan, credits: 1000 });
        // Two keys of the account share its in-flight count, each staying under its own rate limit.
        const second = await t.newKey(tenant.account.id);
        const ids: string[] = [];
        for (let i = 0; i < limit; i++) {
          const { response, data } = await submit(i % 2 === 0 ? tenant.client : second.client);
          expect(response.status).toBe(202);
          ids.push((data as JobAccepted).id);
        }
        const refused = await submit(tenant.client);
        expectError(refused.response, refused.error, 429, 'concurrency_exceeded');
        expect(refused.error!.error.message).toContain(`the ${plan} plan allows ${limit}`);
        expect(refused.response.headers.get('retry-after')).toBe('1');
        const viaSecond = await submit(second.client);
        expectError(viaSecond.response, viaSecond.error, 429, 'concurrency_exceeded');

        const canceled = await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: ids[0] } } });
        expect(canceled.response.status).toBe(200);
        expect((await submit(tenant.client)).response.status).toBe(202);
        const full = await submit(second.client);
        expectError(full.response, full.error, 429, 'concurrency_exceeded');
      },
      120_000,
    );
  });

  describe('requests per second per key', () => {
    it.each([
      ['free', PLAN_LIMITS.free.requestsPerSecond],
      ['pro', PLAN_LIMITS.pro.requestsPerSecond],
      ['max', PLAN_LIMITS.max.requestsPerSecond],
    ] as const)('%s: a burst is answered 200 up to %i per window, then 429 rate_limited; another key is unaffected', async (plan, limit) => {
      const tenant = await t.newTenant({ plan });
      const burst = await Promise.all(Array.from({ length: limit * 3 }, () => tenant.client.GET('/v1/drops')));
      const ok = burst.filter((r) => r.response.status === 200);
      const limited = burst.filter((r) => r.response.status === 429);
      expect(ok.length + limited.length).toBe(burst.length);
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) {
        expectError(r.response, r.error, 429, 'rate_limited');
        expect(Number(r.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      // Every answer states the plan's limit; within one window the 200s count `remaining` down
      // from limit-1 to 0 without repeating, so none slipped past it.
      for (const r of ok) expect(r.response.headers.get('ratelimit-limit')).toBe(String(limit));
      const remaining = ok.map((r) => Number(r.response.headers.get('ratelimit-remaining')));
      expect(remaining).toContain(0);
      expect(Math.max(...remaining)).toBe(limit - 1);
      const windows = remaining.filter((n) => n === limit - 1).length;
      expect(ok.length).toBeGreaterThanOrEqual(limit);
      expect(ok.length).toBeLessThanOrEqual(limit * windows);

      // The limit is per key: a second key of the same account is answered at once.
      const other = await t.newKey(tenant.account.id);
      const fresh = await other.client.GET('/v1/drops');
      expect(fresh.response.status).toBe(200);
      expect(fresh.response.headers.get('ratelimit-remaining')).toBe(String(limit - 1));
    });
  });
});
