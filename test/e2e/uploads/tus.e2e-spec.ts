import { randomBytes } from 'node:crypto';
import { expectError } from '../../support/expect-error';
import { eventually, MiB, ownerSnapshot, png, removeDir, storedFiles, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tus, tusCreate, tusPatch } from '../../support/tus';
import { TusSweeper } from '../../../src/tus/tus-sweeper';

/**
 * tus 1.0 (core, creation, termination, expiration) driven with raw HTTP: creation with the
 * intake's rules, pause and resume through HEAD, the submission made once on the last PATCH,
 * the jobs API's upl_ uploads, expiry, and two API processes serving one upload.
 */
describe('tus uploads', () => {
  let dir: string;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await tempStorageDir('tus');
    t = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: 'tus-e2e-signing-secret-0123456789' });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('tus');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { name: 'Big files', slug, ...body } as any });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const collection = (slug: string) => `${t.baseUrl}/v1/public/drops/${slug}/tus`;

  it('a protocol-only client creates, pauses, resumes from HEAD and finishes; the submission is made once', async () => {
    const slug = await createDrop({ allowedKinds: 'image' });
    const file = Buffer.concat([await png(300, 200), randomBytes(3 * MiB)]);
    const options = await tus(collection(slug), 'OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-extension')).toContain('creation');

    const created = await tusCreate(collection(slug), file.length, { filename: 'big.png', senderName: 'Ada', message: 'resumed' });
    expect(created.status).toBe(201);
    expect(created.location).toMatch(new RegExp(`^${t.baseUrl}/v1/public/drops/${slug}/tus/[A-Za-z0-9_-]+$`));
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    expect(created.headers.get('upload-expires')).toBeTruthy();

    const first = await tusPatch(created.location, 0, file.subarray(0, MiB));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(MiB));
    expect(first.headers.get('dropline-submission-id')).toBeNull();

    // Paused: partial bytes count for nothing, and the offset is there to resume from.
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 0, totalBytes: 0 });
    const head = await tus(created.location, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(MiB));
    expect(head.headers.get('upload-length')).toBe(String(file.length));

    // A stale offset is refused with the envelope and changes nothing.
    const stale = await tusPatch(created.location, 0, file.subarray(0, 10));
    expectError(stale, stale.body, 409, 'offset_mismatch');

    const offset = Number(head.headers.get('upload-offset'));
    const last = await tusPatch(created.location, offset, file.subarray(offset));
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(file.length));
    const submissionId = last.headers.get('dropline-submission-id');
    expect(submissionId).toMatch(/^sub_/);

    const snapshot = await ownerSnapshot(owner, slug);
    expect(snapshot).toEqual({ submissionCount: 1, totalBytes: file.length, ids: [submissionId] });
    const { data: sub } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: submissionId! } } });
    expect(sub!.submission).toMatchObject({ fileName: 'big.png', fileSize: file.length, fileKind: 'image', fileMime: 'image/png', senderName: 'Ada', message: 'resumed' });
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submissionId! } } });
    expect(Buffer.from(await (await fetch(link!.url)).arrayBuffer()).equals(file)).toBe(true);

    // The finished upload is consumed: sending its last bytes again makes no second submission.
    const again = await tusPatch(created.location, file.length - 10, file.subarray(file.length - 10));
    expect(again.status).toBe(404);
    expect((await tus(created.location, 'HEAD')).status).toBe(404);
    expect((await ownerSnapshot(owner, slug)).submissionCount).toBe(1);
    expect((await storedFiles(dir)).filter((f) => f.startsWith('.tus/'))).toEqual([]);
  });

  it('creation applies the intake rules with their codes before anything is stored', async () => {
    const before = await storedFiles(dir);
    const missing = await tusCreate(collection('no-such-drop-tus'), 10, { filename: 'a.txt' });
    expectError(missing, missing.body, 404, 'not_found');

    const paused = await createDrop();
    await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: paused } }, body: { isActive: false } });
    const p = await tusCreate(collection(paused), 10, { filename: 'a.txt' });
    expectError(p, p.body, 403, 'drop_paused');

    const expiring = await createDrop({ expiresAt: new Date(Date.now() + 1000).toISOString() });
    await eventually(
      async () => (await t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug: expiring } } })).data?.drop.acceptingSubmissions === false,
      30_000,
      100,
    );
    const gone = await tusCreate(collection(expiring), 10, { filename: 'a.txt' });
    expectError(gone, gone.body, 410, 'drop_expired');

    const strict = await createDrop({ requireSenderEmail: true, maxFileSizeMB: 1 });
    const noEmail = await tusCreate(collection(strict), 10, { filename: 'a.txt' });
    expectError(noEmail, noEmail.body, 400, 'validation_failed');
    const badEmail = await tusCreate(collection(strict), 10, { filename: 'a.txt', senderEmail: 'not-an-email' });
    expectError(badEmail, badEmail.body, 400, 'validation_failed');
    const noName = await tusCreate(collection(strict), 10, { senderEmail: 'a@example.com' });
    expectError(noName, noName.body, 400, 'validation_failed');
    const tooBig = await tusCreate(collection(strict), MiB + 1, { filename: 'a.bin', senderEmail: 'a@example.com' });
    expectError(tooBig, tooBig.body, 413, 'file_too_large');
    const deferred = await tus(collection(strict), 'POST', { 'Upload-Defer-Length': '1', 'Upload-Metadata': 'filename YS50eHQ=,senderEmail YUBleGFtcGxlLmNvbQ==' });
    expectError(deferred, deferred.body, 400, 'validation_failed');
    const noVersion = await fetch(collection(strict), {
      method: 'POST',
      headers: { 'Upload-Length': '10', 'Upload-Metadata': 'filename YS50eHQ=,senderEmail YUBleGFtcGxlLmNvbQ==' },
    });
    expect(noVersion.status).toBe(412);
    expectError(noVersion, await noVersion.json(), 412, 'tus_version_unsupported');

    expect(await storedFiles(dir)).toEqual(before);
  });

  it('the first bytes of a kind the drop refuses are 415 kind_not_allowed and the upload is removed', async () => {
    const slug = await createDrop({ allowedKinds: 'image' });
    const created = await tusCreate(collection(slug), 5000, { filename: 'photo.png', filetype: 'image/png' });
    expect(created.status).toBe(201);
    const refused = await tusPatch(created.location, 0, Buffer.alloc(2000, 'plain text, not an image. '));
    expectError(refused, refused.body, 415, 'kind_not_allowed');
    expect((await tus(created.location, 'HEAD')).status).toBe(404);
    expect((await storedFiles(dir)).filter((f) => f.includes(created.location.split('/').pop()!))).toEqual([]);
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 0, totalBytes: 0 });
  });

  it('DELETE terminates an upload and removes its bytes; another drop cannot touch it', async () => {
    const slug = await createDrop();
    const other = await createDrop();
    const created = await tusCreate(collection(slug), 100, { filename: 'notes.txt' });
    expect((await tusPatch(created.location, 0, Buffer.alloc(40, 'a'))).status).toBe(204);
    const id = created.location.split('/').pop()!;
    const foreign = await tus(`${collection(other)}/${id}`, 'DELETE');
    expectError(foreign, foreign.body, 404, 'not_found');
    expect((await tus(created.location, 'DELETE')).status).toBe(204);
    expect((await tus(created.location, 'HEAD')).status).toBe(404);
    expect((await storedFiles(dir)).filter((f) => f.includes(id))).toEqual([]);
  });

  it('POST /v1/uploads/tus: bearer with uploads:write; the upl_ id of the Location is a job input once complete', async () => {
    const url = `${t.baseUrl}/v1/uploads/tus`;
    const anonymous = await tusCreate(url, 10, { filename: 'a.png' });
    expectError(anonymous, anonymous.body, 401, 'unauthorized');
    const weak = await t.newKey(owner.account.id, { scopes: ['drops:read'] });
    const noScope = await tusCreate(url, 10, { filename: 'a.png' }, { Authorization: `Bearer ${weak.token}` });
    expectError(noScope, noScope.body, 403, 'insufficient_scope');

    const auth = { Authorization: `Bearer ${owner.token}` };
    const image = await png(640, 480);
    const created = await tusCreate(url, image.length, { filename: 'input.png' }, auth);
    expect(created.status).toBe(201);
    const id = created.location.split('/').pop()!;
    expect(created.location).toBe(`${t.baseUrl}/v1/uploads/tus/${id}`);
    expect(id).toMatch(/^upl_[A-Za-z0-9]{16}$/);
    const stranger = await t.newTenant();
    const foreign = await tus(created.location, 'HEAD', { Authorization: `Bearer ${stranger.token}` });
    expect(foreign.status).toBe(404);

    expect((await tusPatch(created.location, 0, image.subarray(0, 100), auth)).status).toBe(204);
    expect((await tus(created.location, 'HEAD', auth)).headers.get('upload-offset')).toBe('100');
    expect((await tusPatch(created.location, 100, image.subarray(100), auth)).status).toBe(204);

    const job = await owner.client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { fileId: id }, options: { width: 100 } },
      headers: { 'Idempotency-Key': `tus-${id}` },
    } as any);
    expect(job.response.status).toBe(202);
  });

  it('two API processes serve PATCHes of the same upload', async () => {
    const second = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: 'tus-e2e-signing-secret-0123456789' });
    try {
      const slug = await createDrop();
      const file = randomBytes(2 * MiB + 123);
      const created = await tusCreate(collection(slug), file.length, { filename: 'data.bin' });
      expect((await tusPatch(created.location, 0, file.subarray(0, MiB))).status).toBe(204);
      const onSecond = created.location.replace(t.baseUrl, second.baseUrl);
      const head = await tus(onSecond, 'HEAD');
      expect(head.headers.get('upload-offset')).toBe(String(MiB));
      expect((await tusPatch(onSecond, MiB, file.subarray(MiB, 2 * MiB))).status).toBe(204);
      const last = await tusPatch(created.location, 2 * MiB, file.subarray(2 * MiB));
      expect(last.headers.get('dropline-submission-id')).toMatch(/^sub_/);
      expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 1, totalBytes: file.length });
    } finally {
      await second.close();
    }
  });

  it('an incomplete upload expires and the sweeper removes its bytes', async () => {
    const short = await startTestApp({ STORAGE_DIR: dir, TUS_EXPIRY_SECONDS: '1' });
    try {
      const slug = await createDrop();
      const url = `${short.baseUrl}/v1/public/drops/${slug}/tus`;
      const created = await tusCreate(url, 1000, { filename: 'later.txt' });
      expect((await tusPatch(created.location, 0, Buffer.alloc(100, 'x'))).status).toBe(204);
      const id = created.location.split('/').pop()!;
      expect((await storedFiles(dir)).some((f) => f === `.tus/${id}`)).toBe(true);
      const sweeper = short.app.get(TusSweeper);
      const swept = await eventually(
        async () => {
          await sweeper.sweep();
          return !(await storedFiles(dir)).includes(`.tus/${id}`);
        },
        30_000,
        200,
      );
      expect(swept).toBe(true);
      expect((await storedFiles(dir)).filter((f) => f.includes(id))).toEqual([]);
      expect((await tus(created.location, 'HEAD')).status).toBe(404);
    } finally {
      await short.close();
    }
  });
});
