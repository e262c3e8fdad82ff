import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ApiKeyCache } from '../../../src/auth/api-key-cache';
import { LISTEN_APPLICATION_NAME, ListenClient } from '../../../src/database/listen-client';
import { hashToken } from '../../../src/auth/tokens';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { expectError } from '../../support/expect-error';
import { apiCall, type ApiProcess, createTenant, killAll, rawRequest, startApi, waitUntil } from '../../support/processes';
import { startTestApp, type TestApp } from '../../support/test-app';

const run = promisify(execFile);
jest.setTimeout(240_000);

/** Key lookups this process answered from its cache so far (its /metrics). */
async function cacheHits(api: { baseUrl: string }): Promise<number> {
  const res = await rawRequest(`${api.baseUrl}/metrics`);
  const match = /^dropline_api_key_lookups_total\{source="cache"\} (\d+)/m.exec(String(res.body));
  return match ? Number(match[1]) : 0;
}

/** Sends requests with `token` until `api` answers one from its key cache (its listener may still be connecting). */
async function untilCached(api: ApiProcess, token: string): Promise<void> {
  const before = await cacheHits(api);
  await waitUntil(
    `a cache hit on ${api.baseUrl}`,
    async () => {
      const res = await apiCall(api.baseUrl, token, 'GET', '/v1/drops');
      expect(res.status).toBe(200);
      return (await cacheHits(api)) > before;
    },
    60_000,
    100,
  );
}

/**
 * Issue 9 item 1: API keys are cached in every API process and invalidated by push
 * (Postgres NOTIFY from the api_keys/accounts triggers). A revocation by the admin CLI answers
 * 401 `revoked` on the very next request in every process.
 */
describe('API-key cache across two API processes', () => {
  let apis: ApiProcess[];
  let storageDir: string;
  let db: Client;

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'dropline-key-cache-'));
    const env = {
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORAGE_DIR: storageDir,
      WORKER_IN_PROCESS: 'false',
      QUEUE_PREFIX: `bull:test-keycache-${Math.random().toString(36).slice(2, 8)}`,
      SIGNING_SECRET: 'key-cache-test-signing-secret-0123456789',
    };
    apis = await Promise.all([startApi(env, { timeoutMs: 120_000 }), startApi(env, { timeoutMs: 120_000 })]);
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await killAll();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });

  it('a key revoked with the admin CLI is refused with 401 revoked by both processes on the very next request (10 rounds)', async () => {
    for (let round = 1; round <= 10; round++) {
      const tenant = await createTenant(TEST_DATABASE_URL);
      // Both processes hold the key in their cache: their next request would not read Postgres.
      for (const api of apis) await untilCached(api, tenant.token);
      const { stdout } = await run('npm', ['run', '-s', 'admin', '--', 'key:revoke', tenant.keyId], {
        env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, LOG_LEVEL: 'silent' },
      });
      expect(JSON.parse(stdout).key).toMatchObject({ id: tenant.keyId, revokedAt: expect.any(String) });
      const answers = await Promise.all(apis.map((api) => apiCall(api.baseUrl, tenant.token, 'GET', '/v1/drops')));
      for (const answer of answers) {
        expect({ round, status: answer.status, code: answer.body?.error?.code }).toEqual({ round, status: 401, code: 'revoked' });
      }
    }
  });

  it("a plan change applies on both processes' next request", async () => {
    const tenant = await createTenant(TEST_DATABASE_URL, { plan: 'max' });
    for (const api of apis) await untilCached(api, tenant.token);
    await db.query(`UPDATE accounts SET plan = 'free' WHERE id = $1`, [tenant.account.id]);
    for (const api of apis) {
      // The plan's request rate (free: 5/s) is read from the cached account.
      const res = await fetch(`${api.baseUrl}/v1/drops`, { headers: { authorization: `Bearer ${tenant.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
    }
  });
});

describe('API-key cache without its push channel', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await startTestApp();
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('serves no cached key once its listening connection is lost: a change nobody announced is still seen', async () => {
    const cache = t.app.get(ApiKeyCache);
    const tenant = await t.newTenant();
    const hash = hashToken(tenant.token).toString('base64');
    await waitUntil(
      'the key in the cache',
      async () => {
        expect((await tenant.client.GET('/v1/drops')).response.status).toBe(200);
        return cache.get(hash) !== undefined;
      },
      30_000,
      50,
    );

    // Cut the app's LISTEN connection (only this database's, only this app's: it is the one listening here now).
    const { rows } = await db.query(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE application_name = $1 AND datname = current_database() AND client_port = $2`,
      [LISTEN_APPLICATION_NAME, listenerPort(t.app.get(ListenClient))],
    );
    expect(rows).toEqual([{ ok: true }]);
    await waitUntil('the cache to stop vouching for the key', () => cache.get(hash) === undefined, 30_000, 20);

    // A revocation that sends no notification (triggers off for this session): only the database knows.
    await db.query('BEGIN');
    await db.query(`SET LOCAL session_replication_role = replica`);
    await db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [tenant.keyId]);
    await db.query('COMMIT');
    const { response, error } = await tenant.client.GET('/v1/drops');
    expectError(response, error, 401, 'revoked');
  });
});

/** The client port of the app's LISTEN connection, as Postgres sees it. */
function listenerPort(listen: ListenClient): number {
  const connection = (listen as unknown as { connection?: { client: { connection: { stream: { localPort: number } } } } }).connection;
  const port = connection?.client.connection.stream.localPort;
  if (!port) throw new Error('the LISTEN connection is not up');
  return port;
}
