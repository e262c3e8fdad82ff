import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'pg';
import { Clock } from '../../../src/common/clock';
import { migrate } from '../../../src/database/migrations/migrate';
import { RetentionPurge } from '../../../src/retention/retention-purge';
import { StorageReconciliation } from '../../../src/retention/storage-reconciliation';
import { WebhookSweeper } from '../../../src/webhooks/webhook-sweeper';
import type { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE, type StoredObject } from '../../../src/storage/storage.driver';
import { contractFetch } from '../../support/contract-check';
import { dropDatabase } from '../../support/databases';
import { TEST_DATABASE_URL, TEST_RUN_ID } from '../../support/env';
import { waitForJob } from '../../support/jobs';
import { eventually, form, png, postForm, submit } from '../../support/intake';
import { makeVideo } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';
import type { JobAccepted } from '../../../generated/types';

const TWO_DAYS_AGO = new Date(Date.now() - 2 * 24 * 3600_000);

/**
 * Retention (docs/retention.md) with short settings: outputs live 5 s, the purge runs every second.
 * The app has a database of its own: the purges are deployment-wide, and the reconciliation
 * deletes files no row of its database references.
 */
describe('retention', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let db: Client;
  let storage: LocalStorageDriver;
  const databaseUrl = (() => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_${TEST_RUN_ID}_retention`;
    return url.toString();
  })();

  beforeAll(async () => {
    await dropDatabase(databaseUrl);
    await migrate(databaseUrl);
    dir = await mkdtemp(join(tmpdir(), 'dropline-retention-'));
    t = await startTestApp({ DATABASE_URL: databaseUrl, WORKER_IN_PROCESS: 'true', STORAGE_DIR: dir, OUTPUT_RETENTION: '5s', PURGE_INTERVAL: '1s' });
    tenant = await t.newTenant({ plan: 'pro', credits: 100 });
    storage = t.app.get(STORAGE);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
    await dropDatabase(databaseUrl);
    await rm(dir, { recursive: true, force: true });
  });

  /** A purge started now (after the test moved the clock), not one a timer started before. */
  async function freshTick(): Promise<Record<string, number>> {
    const purge = t.app.get(RetentionPurge);
    await purge.tick();
    return (await eventually(() => purge.tick(), 10_000))!;
  }

  async function upload(): Promise<{ id: string; storageKey: string }> {
    const res = await postForm(`${t.baseUrl}/v1/uploads`, {
      body: form({}, { data: await png(64, 48), name: 'in.png', type: 'image/png' }),
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(res.status).toBe(201);
    const { rows } = await db.query('SELECT storage_key FROM uploads WHERE id = $1', [res.body.upload.id]);
    return { id: res.body.upload.id, storageKey: rows[0].storage_key };
  }

  it('purges a job output on time: the job still reads with expiredAt, its old URL answers 410 output_expired, the file is gone', async () => {
    const input = await upload();
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId: input.id }, options: { width: 32 } } as any });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job.state).toBe('completed');
    expect(job.result).toMatchObject({ downloadUrl: expect.any(String), expiredAt: null });
    const url = job.result!.downloadUrl!;
    expect((await contractFetch(url)).status).toBe(200);
    const outputKey = new URL(url).pathname.split('/').pop()!;
    expect(await storage.exists(outputKey)).toBe(true);

    const expired = await eventually(
      async () => {
        const { data: read } = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
        return read!.job.result?.expiredAt ? read!.job : undefined;
      },
      20_000,
      200,
    );
    expect(expired).toBeDefined();
    expect(expired!.result).toMatchObject({ status: 'converted', downloadUrl: null, outputSize: job.result!.outputSize, width: 32 });
    // On time: not before its 5 s, and within a few purge intervals after.
    const kept = new Date(expired!.result!.expiredAt!).getTime() - new Date(job.finishedAt!).getTime();
    expect(kept).toBeGreaterThanOrEqual(5000);
    expect(kept).toBeLessThan(5000 + 5000);

    // The rows are marked in a transaction, the files deleted right after it commits.
    expect(await eventually(async () => !(await storage.exists(outputKey)), 5000)).toBe(true);
    const gone = await contractFetch(url);
    expect(gone.status).toBe(410);
    expect((await gone.json()).error.code).toBe('output_expired');
    // The job's input (an upload, kept 24 h) is not an output: untouched.
    expect(await storage.exists(input.storageKey)).toBe(true);

    const metrics = await eventually(async () => {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      return /dropline_purged_total\{kind="output"\} [1-9]/.test(text) ? text : undefined;
    }, 5000);
    expect(metrics).toMatch(/dropline_purged_total\{kind="output"\} [1-9]/);
    expect(metrics).toMatch(/dropline_sweep_duration_seconds_count\{task="retention-purge"\} [1-9]/);
  });

  it('a job with several outputs: the reconciliation keeps each, retention expires them together — both URLs 410, both files gone', async () => {
    const video = join(dir, 'clip.mp4');
    await makeVideo(video, 2, { size: '160x90' });
    const res = await postForm(`${t.baseUrl}/v1/uploads`, {
      body: form({}, { data: await readFile(video), name: 'clip.mp4', type: 'video/mp4' }),
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(res.status).toBe(201);
    const { data } = await tenant.client.POST('/v1/jobs', { body: { tool: 'video-storyboard', input: { fileId: res.body.upload.id }, options: { interval: 1 } } as any });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id, 60_000);
    expect(job.state).toBe('completed');
    const urls = Object.values(job.result!.outputs).map((o) => o.downloadUrl!);
    expect(urls).toHaveLength(2);
    const keys = urls.map((url) => new URL(url).pathname.split('/').pop()!);
    // Old enough to be an orphan, were it not referenced: the reconciliation keeps both.
    for (const key of keys) await utimes(storage.pathOf(key), TWO_DAYS_AGO, TWO_DAYS_AGO);
    await eventually(() => t.app.get(StorageReconciliation).reconcile(), 10_000);
    for (const key of keys) expect([key, await storage.exists(key)]).toEqual([key, true]);

    const expired = await eventually(
      async () => {
        const { data: read } = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
        return read!.job.result?.expiredAt ? read!.job : undefined;
      },
      20_000,
      200,
    );
    expect(expired!.result!.downloadUrl).toBeNull();
    expect(Object.values(expired!.result!.outputs).map((o) => [o.downloadUrl, o.size])).toEqual(Object.values(job.result!.outputs).map((o) => [null, o.size]));
    for (const key of keys) expect(await eventually(async () => !(await storage.exists(key)), 5000)).toBe(true);
    for (const url of urls) {
      const gone = await contractFetch(url);
      expect(gone.status).toBe(410);
      expect((await gone.json()).error.code).toBe('output_expired');
    }
  });

  it("a pipeline's outputs expire step by step: the job reads with result.expiredAt, every URL (steps' too) null, the old ones 410", async () => {
    const input = await upload();
    const steps = { webp: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'webp', options: { width: 16 } } };
    const { data } = await tenant.client.POST('/v1/jobs', { body: { input: { fileId: input.id }, steps } as any });
    const job = await waitForJob(tenant.client, (data as JobAccepted).id);
    expect(job.state).toBe('completed');
    const urls = Object.values(job.result!.outputs).map((o) => o.downloadUrl!);
    expect(urls).toHaveLength(2);
    for (const url of urls) expect((await contractFetch(url)).status).toBe(200);

    const expired = await eventually(
      async () => {
        const { data: read } = await tenant.client.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
        const outputs = Object.values(read!.job.result?.outputs ?? {});
        return read!.job.result?.expiredAt && outputs.every((o) => o.downloadUrl === null) ? read!.job : undefined;
      },
      20_000,
      200,
    );
    expect(expired).toBeDefined();
    expect(expired!.state).toBe('completed');
    expect(Object.keys(expired!.result!.outputs).sort()).toEqual(['small', 'webp']);
    for (const step of Object.values(expired!.steps!)) for (const output of Object.values(step.outputs)) expect(output.downloadUrl).toBeNull();
    for (const url of urls) {
      const gone = await contractFetch(url);
      expect(gone.status).toBe(410);
      expect((await gone.json()).error.code).toBe('output_expired');
    }
  });

  it('one process purges at a time: a tick finds the deployment lock held by another process and skips', async () => {
    const purge = t.app.get(RetentionPurge);
    const other = new Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      const name = `dropline:${t.queuePrefix}:retention-purge`;
      // Wait for a tick in flight to end, then hold the lock as another process would.
      await eventually(async () => (await other.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [name])).rows[0].ok, 10_000);
      expect(await eventually(async () => (await purge.tick()) === undefined, 5000)).toBe(true);
      await other.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      expect(await eventually(() => purge.tick(), 10_000)).toMatchObject({ output: expect.any(Number) });
    } finally {
      await other.end();
    }
  });

  it('the webhook sweeper also runs in one process at a time: with its lock held elsewhere, an overdue delivery waits for the next tick', async () => {
    await db.query(
      `INSERT INTO webhook_deliveries (id, account_id, event_type, url, message_id, body, status, attempts, next_attempt_at, created_at)
       VALUES ('whd_overdue', $1, 'job.completed', 'http://127.0.0.1:9/hook', 'msg_overdue', '{}', 'pending', '[]', now() - interval '1 hour', now() - interval '1 hour')`,
      [tenant.account.id],
    );
    const sweeper = t.app.get(WebhookSweeper);
    const other = new Client({ connectionString: databaseUrl });
    await other.connect();
    const name = `dropline:${t.queuePrefix}:webhook-sweeper`;
    try {
      expect((await other.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [name])).rows[0].ok).toBe(true);
      expect(await sweeper.sweep()).toBe(0);
      await other.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      expect(await sweeper.sweep()).toBe(1);
    } finally {
      await other.end();
      await db.query("DELETE FROM webhook_deliveries WHERE id = 'whd_overdue'");
    }
  });

  it('deletes job rows past JOB_RETENTION, settled deliveries past DELIVERY_RETENTION, expired idempotency records; never submissions', async () => {
    const input = await upload();
    const { data } = await tenant.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { fileId: input.id }, options: { width: 16 } } as any,
      headers: { 'idempotency-key': `ret-${Date.now()}` },
    } as any);
    await waitForJob(tenant.client, data!.id);
    await db.query(
      `INSERT INTO webhook_deliveries (id, account_id, event_type, url, message_id, body, status, attempts, next_attempt_at)
       VALUES ('whd_retention_old', $1, 'job.completed', 'http://127.0.0.1:9/x', 'msg_retention_old', '{}', 'succeeded', '[]', NULL)`,
      [tenant.account.id],
    );
    const drop = await tenant.client.POST('/v1/drops', { body: { name: 'kept forever' } });
    expect((await submit(t, drop.data!.drop.slug, form({}, { data: 'mine\n', name: 'mine.txt', type: 'text/plain' }))).status).toBe(201);

    const clock = t.app.get(Clock, { strict: false });
    const realNow = clock.now.bind(clock);
    const count = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM idempotency_records')).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM webhook_deliveries')).toBe(1);
    try {
      clock.now = () => new Date(realNow().getTime() + 89 * 24 * 3600_000);
      await freshTick();
      expect(await count('SELECT count(*)::int AS n FROM jobs WHERE id = $1', [data!.id])).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM webhook_deliveries')).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM idempotency_records')).toBe(0);

      clock.now = () => new Date(realNow().getTime() + 91 * 24 * 3600_000);
      await freshTick();
      expect(await count('SELECT count(*)::int AS n FROM jobs WHERE id = $1', [data!.id])).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM submissions')).toBe(1);
    } finally {
      clock.now = realNow;
    }
  });

  it("an auto-conversion's output is its submission's processed file: kept past OUTPUT_RETENTION and past its job row", async () => {
    const drop = await tenant.client.POST('/v1/drops', { body: { name: 'converted', allowedKinds: 'image', autoConvertTo: 'webp' } });
    const slug = drop.data!.drop.slug;
    const sent = await submit(t, slug, form({}, { data: await png(40, 30), name: 'photo.png', type: 'image/png' }));
    expect(sent.status).toBe(201);
    const processedKey = await eventually(
      async () => (await db.query('SELECT processed_key FROM submissions WHERE id = $1', [sent.body.submission.id])).rows[0]?.processed_key as string | null,
      30_000,
      200,
    );
    expect(processedKey).toEqual(expect.any(String));
    const clock = t.app.get(Clock, { strict: false });
    const realNow = clock.now.bind(clock);
    try {
      clock.now = () => new Date(realNow().getTime() + 91 * 24 * 3600_000);
      await freshTick();
      expect((await db.query('SELECT count(*)::int AS n FROM jobs WHERE submission_id = $1', [sent.body.submission.id])).rows[0].n).toBe(0);
    } finally {
      clock.now = realNow;
    }
    expect(await storage.exists(processedKey!)).toBe(true);
    const link = await tenant.client.GET('/v1/drops/{slug}/submissions/{id}/download', {
      params: { path: { slug, id: sent.body.submission.id }, query: { processed: true } },
    });
    expect((await contractFetch(link.data!.url)).status).toBe(200);
  });

  it('a drop deleted while storage fails: its files are recorded and deleted by a later purge, never left forever', async () => {
    const drop = await tenant.client.POST('/v1/drops', { body: { name: 'to delete' } });
    const slug = drop.data!.drop.slug;
    expect((await submit(t, slug, form({}, { data: 'bye\n', name: 'bye.txt', type: 'text/plain' }))).status).toBe(201);
    const { rows } = await db.query('SELECT s.storage_key FROM submissions s JOIN drops d ON d.id = s.drop_id WHERE d.slug = $1', [slug]);
    const key = rows[0].storage_key as string;

    const realDeleteMany = storage.deleteMany.bind(storage);
    storage.deleteMany = () => Promise.reject(new Error('storage unreachable'));
    try {
      const res = await tenant.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(res.response.status).toBeLessThan(300);
      expect(await storage.exists(key)).toBe(true);
      expect((await db.query('SELECT attempts, last_error FROM pending_file_deletions WHERE storage_key = $1', [key])).rows).toEqual([
        { attempts: 1, last_error: 'storage unreachable' },
      ]);
    } finally {
      storage.deleteMany = realDeleteMany;
    }
    const clock = t.app.get(Clock, { strict: false });
    const realNow = clock.now.bind(clock);
    try {
      clock.now = () => new Date(realNow().getTime() + 2 * 60_000);
      const purge = t.app.get(RetentionPurge);
      await eventually(async () => !(await storage.exists(key)) || (await purge.tick(), false), 10_000);
    } finally {
      clock.now = realNow;
    }
    expect(await storage.exists(key)).toBe(false);
    expect((await db.query('SELECT 1 FROM pending_file_deletions WHERE storage_key = $1', [key])).rows).toEqual([]);
  });

  it('reconciliation deletes old unreferenced files, never a referenced one, nor one written or referenced during the scan; reports missing files', async () => {
    const put = async (key: string, old: boolean) => {
      await storage.put(key, Readable.from([Buffer.from(`${key}\n`)]));
      if (old) await utimes(storage.pathOf(key), TWO_DAYS_AGO, TWO_DAYS_AGO);
    };
    const referencedOld = await upload();
    await utimes(storage.pathOf(referencedOld.storageKey), TWO_DAYS_AGO, TWO_DAYS_AGO);
    await put('obj_orphan_old', true);
    await put('obj_orphan_young', false);
    await put('obj_claimed_during_scan', true);
    await db.query(
      `INSERT INTO uploads (id, account_id, storage_key, file_name, file_size, file_mime, file_kind, expires_at)
       VALUES ('upl_missing_file', $1, 'obj_missing_file', 'gone.txt', 1, 'text/plain', 'document', now() + interval '1 day')`,
      [tenant.account.id],
    );

    // The walk of the store is interleaved with writers: after the first object is listed, a new
    // file is written (its row not committed yet) and an upload row claims an old file.
    const realList = storage.list.bind(storage);
    let interleaved = false;
    storage.list = async function* (): AsyncIterable<StoredObject> {
      for await (const object of realList()) {
        yield object;
        if (!interleaved) {
          interleaved = true;
          await put('obj_written_during_scan', false);
          await db.query(
            `INSERT INTO uploads (id, account_id, storage_key, file_name, file_size, file_mime, file_kind, expires_at)
             VALUES ('upl_claimed_during_scan', $1, 'obj_claimed_during_scan', 'c.txt', 1, 'text/plain', 'document', now() + interval '1 day')`,
            [tenant.account.id],
          );
        }
      }
    };
    try {
      const report = await eventually(() => t.app.get(StorageReconciliation).reconcile(), 10_000);
      expect(interleaved).toBe(true);
      expect(report).toMatchObject({ orphansDeleted: 1, missing: ['obj_missing_file'] });
    } finally {
      storage.list = realList;
    }
    expect(await storage.exists('obj_orphan_old')).toBe(false);
    for (const kept of [referencedOld.storageKey, 'obj_orphan_young', 'obj_written_during_scan', 'obj_claimed_during_scan']) {
      expect([kept, await storage.exists(kept)]).toEqual([kept, true]);
    }
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/dropline_purged_total\{kind="orphan_file"\} 1/);
    expect(metrics).toMatch(/dropline_missing_files 1/);
  });
});
