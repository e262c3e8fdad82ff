import { Clock } from '../../../src/common/clock';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { contractFetch } from '../../support/contract-check';
import { TEST_DATABASE_URL } from '../../support/env';
import { expectError } from '../../support/expect-error';
import { checkedClient, startTestApp, type TestApp } from '../../support/test-app';

const run = promisify(execFile);

/** docs/decisions.md §2–3, over real HTTP against real Postgres and Redis. */
describe('API-key authentication', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // Dual-stack listener: 127.0.0.1 arrives as ::ffff:127.0.0.1, [::1] as ::1.
    t = await startTestApp({}, '::');
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(() => t.close());

  it('401 unauthorized without a token', async () => {
    const { response, error } = await t.client().GET('/v1/drops');
    expectError(response, error, 401, 'unauthorized');
  });

  it.each(['Basic abc', 'Bearer', 'Bearer not-a-dropline-key', 'Bearer dl_live_short', 'bearer dl_live_0123456789abcdefghijABCDEFGHIJ0123'])(
    '401 unauthorized for a malformed header: %s',
    async (header) => {
      const res = await contractFetch(`${t.baseUrl}/v1/drops`, { headers: { authorization: header } });
      expectError(res, await res.json(), 401, 'unauthorized');
    },
  );

  it('401 invalid_key for a well-formed unknown key', async () => {
    const { response, error } = await t.client('dl_live_0123456789abcdefghijABCDEFGHIJ0123'.slice(0, 40)).GET('/v1/drops');
    expectError(response, error, 401, 'invalid_key');
  });

  it('401 expired for a key past its expiry, from the next request on', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const tenant = await t.newTenant({ key: { expiresAt } });
    expect((await tenant.client.GET('/v1/drops')).response.status).toBe(200);
    // The guard reads the app's Clock: move it past the expiry instead of sleeping until then.
    const clock = t.app.get(Clock, { strict: false });
    const realNow = clock.now.bind(clock);
    try {
      clock.now = () => new Date(expiresAt.getTime() + 1);
      const { response, error } = await tenant.client.GET('/v1/drops');
      expectError(response, error, 401, 'expired');
    } finally {
      clock.now = realNow;
    }
  });

  it('401 revoked on the very next request after the admin CLI revokes the key', async () => {
    const tenant = await t.newTenant();
    expect((await tenant.client.GET('/v1/drops')).response.status).toBe(200);
    const { stdout } = await run('npm', ['run', '-s', 'admin', '--', 'key:revoke', tenant.keyId], {
      env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(stdout).key).toMatchObject({ id: tenant.keyId, revokedAt: expect.any(String) });
    const { response, error } = await tenant.client.GET('/v1/drops');
    expectError(response, error, 401, 'revoked');
  });

  describe('IP allowlist', () => {
    const v4 = () => `http://127.0.0.1:${port}`;
    const v6 = () => `http://[::1]:${port}`;

    it('IPv4: allows an address inside the CIDR, refuses one outside with 403 ip_not_allowed', async () => {
      const inside = await t.newTenant({ key: { ipAllowlist: ['127.0.0.0/8'] } });
      expect((await checkedClient({ baseUrl: v4(), token: inside.token }).GET('/v1/drops')).response.status).toBe(200);
      const outside = await t.newTenant({ key: { ipAllowlist: ['192.0.2.0/24'] } });
      const { response, error } = await checkedClient({ baseUrl: v4(), token: outside.token }).GET('/v1/drops');
      expectError(response, error, 403, 'ip_not_allowed');
    });

    it('IPv6: allows ::1 through ::1/128 and refuses it through an IPv4-only list', async () => {
      const inside = await t.newTenant({ key: { ipAllowlist: ['::1/128'] } });
      expect((await checkedClient({ baseUrl: v6(), token: inside.token }).GET('/v1/drops')).response.status).toBe(200);
      const v4only = await t.newTenant({ key: { ipAllowlist: ['127.0.0.1/32'] } });
      const { response, error } = await checkedClient({ baseUrl: v6(), token: v4only.token }).GET('/v1/drops');
      expectError(response, error, 403, 'ip_not_allowed');
      const other = await t.newTenant({ key: { ipAllowlist: ['2001:db8::/32'] } });
      const res2 = await checkedClient({ baseUrl: v6(), token: other.token }).GET('/v1/drops');
      expectError(res2.response, res2.error, 403, 'ip_not_allowed');
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
      const tenant = await t.newTenant({ key: { ipAllowlist: ['127.0.0.1/32'] } });
      const res = await contractFetch(`${v4()}/v1/drops`, { headers: { authorization: `Bearer ${tenant.token}`, 'x-forwarded-for': '192.0.2.1' } });
      expect(res.status).toBe(200);
    });
  });

  describe('scopes', () => {
    it('403 insufficient_scope naming the missing scope', async () => {
      const tenant = await t.newTenant({ key: { scopes: ['drops:read'] } });
      expect((await tenant.client.GET('/v1/drops')).response.status).toBe(200);
      const { response, error } = await tenant.client.POST('/v1/drops', { body: { name: 'x' } });
      expectError(response, error, 403, 'insufficient_scope');
      expect(error!.error.message).toContain('drops:write');
    });

    it('validates the request before checking the scope (docs/decisions.md §2 order)', async () => {
      const tenant = await t.newTenant({ key: { scopes: ['drops:read'] } });
      const { response, error } = await tenant.client.POST('/v1/drops', { body: { name: '' } });
      expectError(response, error, 400, 'validation_failed');
    });

    it('a key without drops:read cannot list drops', async () => {
      const tenant = await t.newTenant({ key: { scopes: ['image:write'] } });
      const { response, error } = await tenant.client.GET('/v1/drops');
      expectError(response, error, 403, 'insufficient_scope');
    });
  });

  describe('rate limit', () => {
    it('sends RateLimit-* headers on every authenticated response', async () => {
      const tenant = await t.newTenant({ plan: 'pro' });
      const { response } = await tenant.client.GET('/v1/drops');
      expect(response.headers.get('ratelimit-limit')).toBe('20');
      expect(Number(response.headers.get('ratelimit-remaining'))).toBe(19);
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
    });

    it('429 rate_limited past 5 requests/s on free, with Retry-After and a message naming rate and delay', async () => {
      const tenant = await t.newTenant({ plan: 'free' });
      const results = await Promise.all(Array.from({ length: 8 }, () => tenant.client.GET('/v1/drops')));
      const ok = results.filter((r) => r.response.status === 200);
      const limited = results.filter((r) => r.response.status === 429);
      expect(ok.length).toBeLessThanOrEqual(5);
      expect(limited.length).toBeGreaterThanOrEqual(3);
      const { response, error } = limited[0];
      expectError(response, error, 429, 'rate_limited');
      expect(error!.error.message).toMatch(/^Rate limit of 5 requests per second exceeded; retry in \d+ s\.$/);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('ratelimit-remaining')).toBe('0');
      expect(response.headers.get('ratelimit-limit')).toBe('5');
      // The window passes and the key works again.
      await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after')) * 1000 + 50));
      expect((await tenant.client.GET('/v1/drops')).response.status).toBe(200);
    });

    it('counts per key: another key of the same account is not throttled', async () => {
      const tenant = await t.newTenant({ plan: 'free' });
      await Promise.all(Array.from({ length: 7 }, () => tenant.client.GET('/v1/drops')));
      const other = await t.newKey(tenant.account.id);
      expect((await other.client.GET('/v1/drops')).response.status).toBe(200);
    });
  });

  it('401 comes before 403 ip_not_allowed and 429 (check order)', async () => {
    const tenant = await t.newTenant({ key: { ipAllowlist: ['192.0.2.0/24'], expiresAt: new Date(Date.now() - 1000) } });
    const { response, error } = await tenant.client.GET('/v1/drops');
    expectError(response, error, 401, 'expired');
  });
});
