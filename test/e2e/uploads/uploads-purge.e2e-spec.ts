import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Clock } from '../../../src/common/clock';
import { migrate } from '../../../src/database/migrations/migrate';
import { ReconcileJobs } from '../../../src/jobs/use-cases/reconcile-jobs';
import { dropDatabase } from '../../support/databases';
import { TEST_DATABASE_URL, TEST_RUN_ID } from '../../support/env';
import { form, postForm, storedFiles } from '../../support/intake';
import { startTestApp, type TestApp } from '../../support/test-app';

/**
 * Uploads live 24 h, then the worker's sweeper removes the row and the file. Time is moved with the
 * app's Clock. The app has a database of its own: purging is database-wide, and moving the clock a
 * day ahead in the shared test database would purge the uploads of suites running beside this one.
 */
describe('uploads are purged after 24 h', () => {
  let t: TestApp;
  let dir: string;
  let db: Client;
  const databaseUrl = (() => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_${TEST_RUN_ID}_purge`;
    return url.toString();
  })();

  beforeAll(async () => {
    await dropDatabase(databaseUrl);
    await migrate(databaseUrl);
    dir = await mkdtemp(join(tmpdir(), 'dropline-purge-'));
    t = await startTestApp({ DATABASE_URL: databaseUrl, WORKER_IN_PROCESS: 'true', STORAGE_DIR: dir });
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
    await dropDatabase(databaseUrl);
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps an upload for 24 h, then the sweeper deletes its row and its file', async () => {
    const tenant = await t.newTenant();
    const res = await postForm(`${t.baseUrl}/v1/uploads`, {
      body: form({}, { data: 'kept for a day\n', name: 'day.txt', type: 'text/plain' }),
      headers: { authorization: `Bearer ${tenant.token}` },
    });
    expect(res.status).toBe(201);
    const id = res.body.upload.id;
    // createdAt is the database's clock, expiresAt the app's: a few ms apart.
    const lifetime = new Date(res.body.upload.expiresAt).getTime() - new Date(res.body.upload.createdAt).getTime();
    expect(Math.abs(lifetime - 24 * 3600_000)).toBeLessThan(1000);
    const files = await storedFiles(dir);
    expect(files).toHaveLength(1);
    const rowOf = async () => (await db.query('SELECT id FROM uploads WHERE id = $1', [id])).rows;

    const clock = t.app.get(Clock, { strict: false });
    const sweeper = t.app.get(ReconcileJobs);
    const realNow = clock.now.bind(clock);
    try {
      clock.now = () => new Date(realNow().getTime() + 23.9 * 3600_000);
      await sweeper.sweep();
      expect(await rowOf()).toHaveLength(1);
      expect(await storedFiles(dir)).toEqual(files);

      clock.now = () => new Date(realNow().getTime() + 24 * 3600_000 + 1000);
      await sweeper.sweep();
      expect(await rowOf()).toEqual([]);
      expect(await storedFiles(dir)).toEqual([]);
    } finally {
      clock.now = realNow;
    }
  });
});
