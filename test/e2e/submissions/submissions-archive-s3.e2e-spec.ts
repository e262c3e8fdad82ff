import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { form, MiB, ownerSnapshot, submit } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { s3StorageEnv, startS3rver, type S3rverServer } from '../../support/s3rver';

const run = promisify(execFile);

/** The submissions archive with STORAGE_DRIVER=s3 (s3rver on loopback). */
describe('archive on S3', () => {
  let dir: string;
  let server: S3rverServer;
  let t: TestApp;
  let second: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-tus-s3-'));
    let endpoint: string;
    ({ server, endpoint } = await startS3rver(join(dir, 's3'), ['tus']));
    const env = {
      ...s3StorageEnv(endpoint, 'tus'),
      SIGNING_SECRET: 'e2e-signing-secret-0123456789abcdef',
    };
    t = await startTestApp(env);
    second = await startTestApp(env);
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the archive streams submissions from S3 into a ZIP that passes unzip -t', async () => {
    const slug = uniqueSlug('zip-s3');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'S3', slug } as any })).response.status).toBe(201);
    const files = [randomBytes(9 * MiB + 7), randomBytes(1000)];
    for (const data of files) {
      const res = await submit(t, slug, form({}, { name: 'big.bin', data }));
      expect(res.status).toBe(201);
    }
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 2, totalBytes: files[0].length + files[1].length });

    const res = await fetch(`${second.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    const zip = join(dir, 'all.zip');
    await pipeline(Readable.fromWeb(res.body as any), createWriteStream(zip));
    const { stdout } = await run('unzip', ['-t', zip]);
    expect(stdout).toMatch(/big\.bin\s+OK/);
    expect(stdout).toMatch(/big \(2\)\.bin\s+OK/);
    expect(stdout).toMatch(/No errors detected/);
  });
});
