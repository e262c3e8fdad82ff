import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertContract } from '../../support/contract-check';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { expectError } from '../../support/expect-error';
import { type ApiProcess, createTenant, killAll, startApi, waitUntil } from '../../support/processes';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

jest.setTimeout(240_000);

/**
 * Issue 26 item 7: made-up keys were never limited (600 in a row, 600 × 401, each after a database
 * lookup). Failed authentications are budgeted per client address in Redis, shared by every API
 * process (src/auth/failed-auth-limiter.ts): the failure past AUTH_FAILURES_PER_IP is 429
 * `rate_limited` with Retry-After, and the address is then refused before any key lookup.
 * Client addresses are told apart with X-Forwarded-For from a trusted loopback proxy (no traffic
 * goes to them).
 */
const madeUpKey = () => `dl_live_${Math.random().toString(36).slice(2).padEnd(32, 'x').slice(0, 32)}`;

async function call(baseUrl: string, token: string, address: string, path = '/v1/drops') {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address } });
  const text = await res.text();
  assertContract('GET', `${baseUrl}${path}`, { status: res.status, headers: res.headers, text });
  return { res, status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

/** Key lookups that went to Postgres so far (the process's /metrics). */
async function databaseLookups(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^dropline_api_key_lookups_total\{source="database"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('a budget of failed authentications per client address', () => {
  let t: TestApp;
  let owner: Tenant;
  const BUDGET = 5;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1', AUTH_FAILURES_PER_IP: String(BUDGET), AUTH_FAILURE_WINDOW_S: '60' });
    owner = await t.newTenant();
  });
  afterAll(() => t.close());

  it('600 made-up keys from one address: 5 × 401 (tokens never logged), then 429 rate_limited with Retry-After, without looking keys up', async () => {
    const address = '127.0.0.21';
    const statuses: number[] = [];
    const tokens = Array.from({ length: BUDGET }, madeUpKey);
    for (const token of tokens) statuses.push((await call(t.baseUrl, token, address)).status);
    expect(statuses).toEqual(Array(BUDGET).fill(401));
    // Each refusal is logged as a request line, and no token sent is in the log.
    const log = await waitUntil(
      'the 401 request lines',
      () => {
        const text = existsSync(t.config.LOG_FILE!) ? readFileSync(t.config.LOG_FILE!, 'utf8') : '';
        return text.split('GET /v1/drops 401').length > BUDGET ? text : undefined;
      },
      15_000,
    );
    for (const token of tokens) expect(log).not.toContain(token.slice(8));

    const refused = await call(t.baseUrl, madeUpKey(), address);
    expectError(refused.res, refused.body, 429, 'rate_limited');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.res.headers.get('ratelimit-limit')).toBe(String(BUDGET));

    const lookups = await databaseLookups(t.baseUrl);
    const rest: Record<number, number> = {};
    for (let i = 0; i < 600 - BUDGET - 1; i++) {
      const { status } = await call(t.baseUrl, madeUpKey(), address);
      rest[status] = (rest[status] ?? 0) + 1;
    }
    expect(rest).toEqual({ 429: 600 - BUDGET - 1 });
    expect(await databaseLookups(t.baseUrl)).toBe(lookups);
  });

  it('every kind of 401 counts (no header, malformed, unknown, revoked), and the address is refused even with a valid key', async () => {
    const address = '127.0.0.22';
    const revoked = await t.newKey(owner.account.id);
    await owner.client.GET('/v1/drops'); // the owner's key works
    const { ApiKeysService } = await import('../../../src/auth/api-keys.service');
    await t.app.get(ApiKeysService).revoke(revoked.keyId);
    const attempts: [string, Record<string, string>][] = [
      ['no header', {}],
      ['malformed', { authorization: 'Basic abc' }],
      ['unknown', { authorization: `Bearer ${madeUpKey()}` }],
      ['revoked', { authorization: `Bearer ${revoked.token}` }],
      ['unknown', { authorization: `Bearer ${madeUpKey()}` }],
    ];
    for (const [label, headers] of attempts) {
      const res = await fetch(`${t.baseUrl}/v1/drops`, { headers: { ...headers, 'x-forwarded-for': address } });
      expect({ label, status: res.status }).toEqual({ label, status: 401 });
    }
    // Five failures spend the budget; the sixth is the one refused, and the address with it.
    expect((await call(t.baseUrl, madeUpKey(), address)).status).toBe(429);
    const valid = await call(t.baseUrl, owner.token, address);
    expectError(valid.res, valid.body, 429, 'rate_limited');
    // A HEAD (tus) is refused the same way, its 429 as the contract declares it.
    const head = await fetch(`${t.baseUrl}/v1/uploads/tus/abc`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'x-forwarded-for': address },
    });
    expect(head.status).toBe(429);
    expect(Number(head.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    assertContract('HEAD', `${t.baseUrl}/v1/uploads/tus/abc`, { status: head.status, headers: head.headers, text: '' });
  });

  it('the budget is per address: another address still authenticates and still gets 401 for a bad key', async () => {
    const spent = '127.0.0.23';
    for (let i = 0; i <= BUDGET; i++) await call(t.baseUrl, madeUpKey(), spent);
    expect((await call(t.baseUrl, madeUpKey(), spent)).status).toBe(429);
    expect((await call(t.baseUrl, owner.token, '127.0.0.24')).status).toBe(200);
    expect((await call(t.baseUrl, madeUpKey(), '127.0.0.24')).status).toBe(401);
  });

  it('public operations are not touched by it', async () => {
    const spent = '127.0.0.25';
    for (let i = 0; i <= BUDGET; i++) await call(t.baseUrl, madeUpKey(), spent);
    const res = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-forwarded-for': spent } });
    expect(res.status).toBe(200);
    const page = await fetch(`${t.baseUrl}/v1/public/drops/no-such-drop-here`, { headers: { 'x-forwarded-for': spent } });
    expect(page.status).toBe(404);
  });
});

describe('the budget ends with its window', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '127.0.0.1', AUTH_FAILURES_PER_IP: '2', AUTH_FAILURE_WINDOW_S: '2' });
  });
  afterAll(() => t.close());

  it('after Retry-After the address is answered 401 again', async () => {
    const address = '127.0.0.26';
    expect((await call(t.baseUrl, madeUpKey(), address)).status).toBe(401);
    expect((await call(t.baseUrl, madeUpKey(), address)).status).toBe(401);
    const refused = await call(t.baseUrl, madeUpKey(), address);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(2);
    await waitUntil('the window to end', async () => (await call(t.baseUrl, madeUpKey(), address)).status === 401, 15_000, 250);
  });
});

describe('the budget is shared by API processes', () => {
  let apis: ApiProcess[];
  let storageDir: string;
  const BUDGET = 6;

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-auth-failures-'));
    const env = {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORAGE_DIR: storageDir,
      WORKER_IN_PROCESS: 'false',
      QUEUE_PREFIX: `bull:test-authfail-${Math.random().toString(36).slice(2, 8)}`,
      SIGNING_SECRET: 'auth-failures-test-signing-secret-0123456789',
      TRUST_PROXY: '127.0.0.1',
      AUTH_FAILURES_PER_IP: String(BUDGET),
      AUTH_FAILURE_WINDOW_S: '120',
    };
    apis = await Promise.all([startApi(env, { timeoutMs: 120_000 }), startApi(env, { timeoutMs: 120_000 })]);
  });
  afterAll(async () => {
    await killAll();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  it('3 failures on each process spend the budget of 6: the next failure is 429 on either process', async () => {
    const [a, b] = apis;
    const address = '127.0.0.27';
    const statuses: string[] = [];
    for (let i = 0; i < BUDGET; i++) {
      const api = i % 2 === 0 ? a : b;
      statuses.push(`${api === a ? 'A' : 'B'} ${(await call(api.baseUrl, madeUpKey(), address)).status}`);
    }
    expect(statuses).toEqual(['A 401', 'B 401', 'A 401', 'B 401', 'A 401', 'B 401']);
    // Neither process alone has seen more than 3 failures.
    const onA = await call(a.baseUrl, madeUpKey(), address);
    expectError(onA.res, onA.body, 429, 'rate_limited');
    const onB = await call(b.baseUrl, madeUpKey(), address);
    expectError(onB.res, onB.body, 429, 'rate_limited');
    expect(Number(onB.retryAfter)).toBeGreaterThanOrEqual(1);
    // A valid key from elsewhere is served by both.
    const tenant = await createTenant(TEST_DATABASE_URL);
    for (const api of apis) expect((await call(api.baseUrl, tenant.token, '127.0.0.28')).status).toBe(200);
  });
});
