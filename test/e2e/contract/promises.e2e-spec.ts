import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { expectError } from '../../support/expect-error';
import { contractFetch } from '../../support/contract-check';
import { TEST_DATABASE_URL } from '../../support/env';
import { storedFiles } from '../../support/intake';
import { makePng } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/** Promises of the README and the contract that had no test of their own (issue 14 item 5). */
describe('promises', () => {
  let t: TestApp;
  let proxied: TestApp;
  let db: Client;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-promises-'));
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', STORAGE_DIR: join(dir, 'files') });
    // Behind a proxy on 127.0.0.1: its X-Forwarded-For is believed.
    proxied = await startTestApp({ TRUST_PROXY: '127.0.0.1', PUBLIC_RATE_LIMIT: '1', STORAGE_DIR: join(dir, 'proxied') });
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await proxied.close();
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('TRUST_PROXY', () => {
    it("believes the named proxy's X-Forwarded-For for a key's IP allowlist", async () => {
      const tenant = await proxied.newTenant({ key: { ipAllowlist: ['192.0.2.0/24'] } });
      const auth = { authorization: `Bearer ${tenant.token}` };
      // The socket address is 127.0.0.1 (outside the list); the client behind the proxy is inside it.
      expect((await contractFetch(`${proxied.baseUrl}/v1/drops`, { headers: { ...auth, 'x-forwarded-for': '192.0.2.7' } })).status).toBe(200);
      const outside = await contractFetch(`${proxied.baseUrl}/v1/drops`, { headers: { ...auth, 'x-forwarded-for': '198.51.100.7' } });
      expectError(outside, await outside.json(), 403, 'ip_not_allowed');
      const direct = await contractFetch(`${proxied.baseUrl}/v1/drops`, { headers: auth });
      expectError(direct, await direct.json(), 403, 'ip_not_allowed');
    });

    it('counts the public rate limit per forwarded client, not per proxy', async () => {
      const owner = await proxied.newTenant();
      const slug = uniqueSlug('proxy');
      expect((await owner.client.POST('/v1/drops', { body: { name: 'Behind a proxy', slug } })).response.status).toBe(201);
      const get = (ip: string) => contractFetch(`${proxied.baseUrl}/v1/public/drops/${slug}`, { headers: { 'x-forwarded-for': ip } });
      // One request per second per client (PUBLIC_RATE_LIMIT=1): a burst from one client is mostly
      // refused, and another client behind the same proxy is still served.
      const burst = await Promise.all(Array.from({ length: 5 }, () => get('203.0.113.10')));
      const refused = burst.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(3);
      expectError(refused[0], await refused[0].json(), 429, 'rate_limited');
      expect((await get('203.0.113.11')).status).toBe(200);
    });
  });

  it('stores a key only as the SHA-256 of its token', async () => {
    const tenant = await t.newTenant();
    const { rows } = await db.query('SELECT * FROM api_keys WHERE id = $1', [tenant.keyId]);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row.token_hash).toEqual(createHash('sha256').update(tenant.token).digest());
    // No column holds the token, or any part of it past the displayed prefix.
    const secretPart = tenant.token.slice(-16);
    for (const [column, value] of Object.entries(row)) {
      const text = Buffer.isBuffer(value) ? value.toString('latin1') : JSON.stringify(value);
      expect({ column, containsSecret: text.includes(secretPart) }).toEqual({ column, containsSecret: false });
    }
  });

  describe('deleting removes processed output too', () => {
    let owner: Tenant;
    beforeAll(async () => {
      owner = await t.newTenant({ credits: 100 });
    });

    /** A drop converting to WebP with one submission converted: the original and the output are stored. */
    async function convertedSubmission(): Promise<{ slug: string; id: string; keys: string[] }> {
      const slug = uniqueSlug('processed');
      const created = await owner.client.POST('/v1/drops', { body: { name: 'Converted', slug, autoConvertTo: 'webp' } as any });
      expect(created.response.status).toBe(201);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await makePng(40, 30))], { type: 'image/png' }), 'p.png');
      const sent = await contractFetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
      expect(sent.status).toBe(201);
      const id = ((await sent.json()) as { submission: { id: string } }).submission.id;
      for (;;) {
        const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
        if (data!.submission.status !== 'processing') {
          expect(data!.submission.status).toBe('ready');
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const { rows } = await db.query('SELECT storage_key, processed_key FROM submissions WHERE id = $1', [id]);
      const keys = [rows[0].storage_key, rows[0].processed_key];
      expect(keys.every((k) => typeof k === 'string')).toBe(true);
      return { slug, id, keys };
    }

    const stored = async (keys: string[]) => {
      const files = await storedFiles(join(dir, 'files'));
      return keys.filter((k) => files.some((f) => f.endsWith(k) || f === k));
    };

    it('deleting a submission deletes its converted output', async () => {
      const { slug, id, keys } = await convertedSubmission();
      expect(await stored(keys)).toEqual(keys);
      const res = await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
      expect(res.response.status).toBe(204);
      expect(await stored(keys)).toEqual([]);
    });

    it('deleting a drop deletes its submissions’ converted outputs', async () => {
      const { slug, keys } = await convertedSubmission();
      expect(await stored(keys)).toEqual(keys);
      const res = await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(res.response.status).toBe(204);
      expect(await stored(keys)).toEqual([]);
    });
  });
});
