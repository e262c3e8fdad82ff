import { expectError } from '../../support/expect-error';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';
import { NEW_DROP_SETTINGS } from '../../support/drops';

/** docs/decisions.md §5 over real HTTP with the generated client. */
describe('drops', () => {
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.newTenant();
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, tenant = owner) => tenant.client.POST('/v1/drops', { body: body as any });
  const patch = (slug: string, body: Record<string, unknown>, tenant = owner) => tenant.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: body as any });

  describe('create', () => {
    it('applies the defaults and answers 201 {drop}', async () => {
      const free = await t.newTenant({ plan: 'free' });
      const { response, data } = await create({ name: 'Photos' }, free);
      expect(response.status).toBe(201);
      const { passwordHash: _hash, ...settings } = NEW_DROP_SETTINGS;
      expect(data!.drop).toEqual({
        ...settings,
        hasPassword: false,
        slug: expect.stringMatching(/^[a-z0-9]{10}$/),
        name: 'Photos',
        maxFileSizeMB: 25, // the free plan's limit
        publicUrl: expect.stringMatching(/\/d\/[a-z0-9]{10}$/),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it('keeps every given field', async () => {
      const slug = uniqueSlug();
      const expiresAt = new Date(Date.now() + 86400_000).toISOString();
      const { data } = await create({
        name: 'Launch',
        slug,
        description: 'd',
        allowedKinds: 'image',
        maxFileSizeMB: 10,
        requireSenderEmail: true,
        requireMessage: true,
        autoConvertTo: 'webp',
        autoCompress: true,
        webhookUrl: 'https://example.com/hook',
        expiresAt,
      });
      expect(data!.drop).toMatchObject({ slug, allowedKinds: 'image', maxFileSizeMB: 10, autoConvertTo: 'webp', expiresAt, webhookUrl: 'https://example.com/hook' });
    });

    it('409 slug_taken, across accounts too', async () => {
      const slug = uniqueSlug();
      expect((await create({ name: 'a', slug })).response.status).toBe(201);
      const other = await t.newTenant();
      const { response, error } = await create({ name: 'b', slug }, other);
      expectError(response, error, 409, 'slug_taken');
    });

    it.each([
      ['no name', {}],
      ['empty name', { name: '' }],
      ['name over 120 chars', { name: 'x'.repeat(121) }],
      ['name of the wrong type', { name: 42 }],
      ['uppercase slug', { name: 'a', slug: 'Hello' }],
      ['slug with underscore', { name: 'a', slug: 'a_b_c' }],
      ['slug starting with a hyphen', { name: 'a', slug: '-abc' }],
      ['slug too short', { name: 'a', slug: 'ab' }],
      ['slug too long', { name: 'a', slug: 'a'.repeat(65) }],
      ['unknown allowedKinds', { name: 'a', allowedKinds: 'pdf' }],
      ['maxFileSizeMB 0', { name: 'a', maxFileSizeMB: 0 }],
      ['maxFileSizeMB fractional', { name: 'a', maxFileSizeMB: 1.5 }],
      ['unknown autoConvertTo', { name: 'a', autoConvertTo: 'bmp' }],
      ['autoConvertTo outside allowedKinds', { name: 'a', allowedKinds: 'audio', autoConvertTo: 'webp' }],
      ['webhookUrl not http(s)', { name: 'a', webhookUrl: 'ftp://example.com/x' }],
      ['expiresAt not a timestamp', { name: 'a', expiresAt: 'tomorrow' }],
      ['expiresAt in the past', { name: 'a', expiresAt: '2020-01-01T00:00:00Z' }],
      ['unknown field', { name: 'a', colour: 'red' }],
      ['emoji over 16 chars', { name: 'a', emoji: 'x'.repeat(17) }],
      ['isActive (PATCH only)', { name: 'a', isActive: false }],
    ])('400 validation_failed: %s', async (_label, body) => {
      const { response, error } = await create(body);
      expectError(response, error, 400, 'validation_failed');
      expect(error!.error.details).toEqual(expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]));
    });

    it('400 when maxFileSizeMB exceeds the plan limit', async () => {
      const free = await t.newTenant({ plan: 'free' });
      const { response, error } = await create({ name: 'a', maxFileSizeMB: 26 }, free);
      expectError(response, error, 400, 'validation_failed');
      expect(error!.error.message).toContain('25');
    });
  });

  describe('read', () => {
    it("gets its own drop and 404s another account's", async () => {
      const { data } = await create({ name: 'mine' });
      const slug = data!.drop.slug;
      const got = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(got.data!.drop).toEqual(data!.drop);
      const stranger = await t.newTenant();
      const res = await stranger.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
      expectError(res.response, res.error, 404, 'not_found');
    });

    it('404 for a slug that cannot exist', async () => {
      const res = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug: 'NO' } } });
      expectError(res.response, res.error, 404, 'not_found');
      // Longer than Fastify's router takes as a parameter: 404 too, never its undeclared 414.
      const long = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug: 'a'.repeat(3000) } } });
      expectError(long.response, long.error, 404, 'not_found');
    });

    it('lists newest first with cursor pagination', async () => {
      const tenant = await t.newTenant();
      const slugs: string[] = [];
      for (let i = 0; i < 5; i++) slugs.push((await create({ name: `d${i}` }, tenant)).data!.drop.slug);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const { data } = await tenant.client.GET('/v1/drops', { params: { query: { limit: 2, cursor } } });
        seen.push(...data!.drops.map((d) => d.slug));
        cursor = data!.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...slugs].reverse());
    });

    it.each([
      ['limit 0', { limit: '0' }],
      ['limit 101', { limit: '101' }],
      ['limit not a number', { limit: 'ten' }],
      ['forged cursor', { cursor: 'bm90LWEtY3Vyc29y' }],
    ])('400 validation_failed on %s', async (_l, query) => {
      const res = await contractFetch(`${t.baseUrl}/v1/drops?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${owner.token}` } });
      expectError(res, await res.json(), 400, 'validation_failed');
    });
  });

  describe('update', () => {
    it('pauses and resumes', async () => {
      const slug = (await create({ name: 'p' })).data!.drop.slug;
      expect((await patch(slug, { isActive: false })).data!.drop.isActive).toBe(false);
      expect((await patch(slug, { isActive: true })).data!.drop.isActive).toBe(true);
    });

    it('sets and clears the expiry, emoji and accent colour', async () => {
      const slug = (await create({ name: 'e' })).data!.drop.slug;
      const expiresAt = new Date(Date.now() + 3600_000).toISOString();
      const set = await patch(slug, { expiresAt, emoji: '🚀', accentColor: '#3366ff', name: 'renamed' });
      expect(set.data!.drop).toMatchObject({ expiresAt, emoji: '🚀', accentColor: '#3366ff', name: 'renamed' });
      const cleared = await patch(slug, { expiresAt: null, emoji: null, accentColor: null });
      expect(cleared.data!.drop).toMatchObject({ expiresAt: null, emoji: null, accentColor: null, name: 'renamed' });
    });

    it('an empty patch changes nothing', async () => {
      const { data } = await create({ name: 'same' });
      const res = await patch(data!.drop.slug, {});
      expect(res.data!.drop).toEqual(data!.drop);
    });

    it.each([
      ['accentColor not #RRGGBB', { accentColor: 'red' }],
      ['emoji over 16 chars', { emoji: 'x'.repeat(17) }],
      ['isActive not boolean', { isActive: 'no' }],
      ['expiresAt in the past', { expiresAt: '2001-01-01T00:00:00Z' }],
      ['slug (immutable)', { slug: 'new-slug' }],
      ['submissionCount (read-only)', { submissionCount: 3 }],
      ['unknown field', { foo: 1 }],
      ['autoConvertTo of a kind the drop refuses', { allowedKinds: 'video', autoConvertTo: 'mp3' }],
    ])('400 validation_failed: %s', async (_l, body) => {
      const slug = (await create({ name: 'v' })).data!.drop.slug;
      const { response, error } = await patch(slug, body);
      expectError(response, error, 400, 'validation_failed');
      const after = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(after.data!.drop.name).toBe('v'); // nothing half-applied
    });

    it("404 for another account's drop, and it stays unchanged", async () => {
      const slug = (await create({ name: 'keep' })).data!.drop.slug;
      const stranger = await t.newTenant();
      const res = await patch(slug, { name: 'stolen' }, stranger);
      expectError(res.response, res.error, 404, 'not_found');
      expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).data!.drop.name).toBe('keep');
    });
  });

  describe('delete', () => {
    it('204, then 404', async () => {
      const slug = (await create({ name: 'gone' })).data!.drop.slug;
      const del = await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(del.response.status).toBe(204);
      const res = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
      expectError(res.response, res.error, 404, 'not_found');
    });

    it("404 for another account's drop, which survives", async () => {
      const slug = (await create({ name: 'mine' })).data!.drop.slug;
      const stranger = await t.newTenant();
      const res = await stranger.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expectError(res.response, res.error, 404, 'not_found');
      expect((await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).response.status).toBe(200);
    });
  });

  describe('bad input never yields a 5xx or a bare body', () => {
    const raw = (path: string, init: RequestInit = {}) =>
      contractFetch(`${t.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${owner.token}`, ...(init.headers ?? {}) } });

    it('400 invalid_json for malformed JSON', async () => {
      const res = await raw('/v1/drops', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
      expectError(res, await res.json(), 400, 'invalid_json');
    });

    it('415 unsupported_media_type for a non-JSON body', async () => {
      const res = await raw('/v1/drops', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=x' });
      expectError(res, await res.json(), 415, 'unsupported_media_type');
    });

    it('400 when the body is missing', async () => {
      const res = await raw('/v1/drops', { method: 'POST' });
      expectError(res, await res.json(), 400, 'validation_failed');
    });

    it('400 for a JSON array or scalar body', async () => {
      for (const body of ['[]', '"x"', 'null', '42']) {
        const res = await raw('/v1/drops', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(res.status).toBe(400);
        expect((await res.json()).error.code).toMatch(/validation_failed|invalid_json/);
      }
    });

    it('413 for a body over 1 MiB', async () => {
      const res = await raw('/v1/drops', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) });
      expectError(res, await res.json(), 413, 'body_too_large');
    });

    it('404 not_found envelope for an unknown route and method', async () => {
      // Routes the contract does not have: plain fetch, there is no operation to check them against.
      for (const [method, path] of [
        ['GET', '/nope'],
        ['PUT', '/v1/drops'],
        ['GET', '/v1/drops/a/b/c/d'],
      ]) {
        const res = await fetch(`${t.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${owner.token}` } });
        expectError(res, await res.json(), 404, 'not_found');
      }
    });

    it('400 for a percent-encoding error in the path', async () => {
      const res = await raw('/v1/drops/%E0%A4%A');
      expect(res.status).toBeLessThan(500);
      // Answered by Fastify's router before any route: still the same media type and a request id.
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
      expect((await res.json()).error.code).toEqual(expect.any(String));
    });
  });
});
