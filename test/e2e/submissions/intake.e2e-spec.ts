import { expectError } from '../../support/expect-error';
import { type Answer, eventually, form, MiB, ownerSnapshot, png, removeDir, send, stallingForm, storedFiles, streamedForm, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * The public intake (docs/decisions.md §6, POST /v1/public/drops/{slug}/submissions) over real HTTP:
 * the happy path, then every refusal provoked for real, each checked for what it leaves behind.
 */
describe('public intake', () => {
  let t: TestApp;
  let dir: string;
  let owner: Tenant;
  let image: Buffer;

  // A high per-IP limit: other suites hit the public endpoints from 127.0.0.1 at the same time.
  beforeAll(async () => {
    dir = await tempStorageDir('intake');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant();
    image = await png();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  const createDrop = async (body: Record<string, unknown> = {}) => {
    const { response, data } = await owner.client.POST('/v1/drops', { body: { name: 'Inbox', slug: uniqueSlug(), ...body } as any });
    expect(response.status).toBe(201);
    return data!.drop;
  };

  describe('201', () => {
    it('stores the file, answers the public view and updates the drop counters', async () => {
      const drop = await createDrop({ requireSenderEmail: true, requireMessage: true });
      const before = await storedFiles(dir);
      const res = await submit(
        t,
        drop.slug,
        form(
          { senderName: 'Ada Lovelace', senderEmail: 'ada@example.com', message: 'Here are the plans.' },
          // The client claims a PDF: the bytes say PNG, and the bytes win.
          { data: image, name: '../../etc/passwd', type: 'application/pdf' },
        ),
      );
      expect(res.status).toBe(201);
      expect(res.headers!.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        submission: {
          id: expect.stringMatching(/^sub_[A-Za-z0-9]{16}$/),
          fileName: 'passwd',
          fileSize: image.length,
          fileKind: 'image',
          status: 'ready',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      });
      // Nothing about the owner or other senders leaks into the public view.
      expect(Object.keys(res.body.submission).sort()).toEqual(['createdAt', 'fileKind', 'fileName', 'fileSize', 'id', 'status']);

      const id = res.body.submission.id as string;
      const got = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug: drop.slug, id } } });
      expect(got.data!.submission).toEqual({
        id,
        dropId: expect.stringMatching(/^drp_/),
        senderName: 'Ada Lovelace',
        senderEmail: 'ada@example.com',
        message: 'Here are the plans.',
        fileName: 'passwd',
        fileSize: image.length,
        fileMime: 'image/png',
        fileKind: 'image',
        status: 'ready',
        outputs: [],
        processedFileName: null,
        processingError: null,
        isRead: false,
        isStarred: false,
        isArchived: false,
        isLate: false,
        scan: { status: 'unscanned' },
        createdAt: res.body.submission.createdAt,
      });
      const snap = await ownerSnapshot(owner, drop.slug);
      expect(snap).toEqual({ submissionCount: 1, totalBytes: image.length, ids: [id] });

      const after = await storedFiles(dir);
      const added = after.filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      // Storage keys are generated, never derived from the sender's file name.
      expect(added[0]).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/obj_[A-Za-z0-9]{16}$/);
      expect(added[0]).not.toContain('passwd');
    });

    it('sender fields are optional unless the drop requires them; counters add up', async () => {
      const drop = await createDrop();
      const a = await submit(t, drop.slug, form({}, { data: 'first\n', name: 'a.txt', type: 'text/plain' }));
      const b = await submit(t, drop.slug, form({ senderName: '  Bob  ' }, { data: image, name: 'b.png', type: 'image/png' }));
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.submission).toMatchObject({ fileName: 'a.txt', fileKind: 'document', fileSize: 6 });
      const got = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug: drop.slug, id: a.body.submission.id } } });
      expect(got.data!.submission).toMatchObject({ senderName: null, senderEmail: null, message: null, fileMime: 'text/plain' });
      const gotB = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug: drop.slug, id: b.body.submission.id } } });
      expect(gotB.data!.submission.senderName).toBe('Bob');
      const snap = await ownerSnapshot(owner, drop.slug);
      expect(snap.submissionCount).toBe(2);
      expect(snap.totalBytes).toBe(6 + image.length);
    });

    it('accepts a file within maxFileSizeMB sent as a chunked stream (no Content-Length)', async () => {
      const drop = await createDrop({ maxFileSizeMB: 1 });
      const size = MiB - 10;
      const { body, contentType } = streamedForm({ fileName: 'exact.bin', size });
      const res = await send(t, drop.slug, { body: body as any, duplex: 'half', headers: { 'content-type': contentType } });
      expect(res.status).toBe(201);
      expect(res.body.submission).toMatchObject({ fileSize: size, fileKind: 'document' });
    });
    it('accepts an empty file (it used to hang the request: nothing ever answered)', async () => {
      const drop = await createDrop();
      // A hang shows as jest's test timeout.
      const res = await submit(t, drop.slug, form({}, { data: '', name: 'empty.txt', type: 'text/plain' }));
      expect(res.status).toBe(201);
      expect(res.body.submission).toMatchObject({ fileName: 'empty.txt', fileSize: 0, fileKind: 'document' });
      expect(await ownerSnapshot(owner, drop.slug)).toMatchObject({ submissionCount: 1, totalBytes: 0 });
    });
  });

  describe('refusals leave nothing behind', () => {
    /** Runs `act` and asserts no row, no counter change and no stored file remain. */
    async function refused(slug: string | null, act: () => Promise<Answer>): Promise<Answer> {
      const beforeFiles = await storedFiles(dir);
      const beforeOwner = slug ? await ownerSnapshot(owner, slug) : null;
      const res = await act();
      // The server answers only after cleaning up; the short wait covers a reset seen before that.
      const files = await eventually(async () => {
        const now = await storedFiles(dir);
        return JSON.stringify(now) === JSON.stringify(beforeFiles) ? now : null;
      }, 3000);
      expect(files ?? (await storedFiles(dir))).toEqual(beforeFiles);
      if (slug) expect(await ownerSnapshot(owner, slug)).toEqual(beforeOwner);
      return res;
    }

    const withFile = (fields: Record<string, string> = {}) =>
      form({ senderName: 'S', senderEmail: 's@example.com', message: 'm', ...fields }, { data: image, name: 'p.png', type: 'image/png' });

    it('404 not_found: no such drop', async () => {
      const res = await refused(null, () => submit(t, uniqueSlug('nope'), withFile()));
      expectError({ status: res.status! }, res.body, 404, 'not_found');
    });

    it('404 not_found: a slug that cannot exist', async () => {
      const res = await refused(null, () => submit(t, 'NOT_A_SLUG', withFile()));
      expectError({ status: res.status! }, res.body, 404, 'not_found');
    });

    it('403 drop_paused', async () => {
      const drop = await createDrop();
      await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: drop.slug } }, body: { isActive: false } });
      const res = await refused(drop.slug, () => submit(t, drop.slug, withFile()));
      expectError({ status: res.status! }, res.body, 403, 'drop_paused');
      // The owner can resume it, and then it accepts files again.
      await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: drop.slug } }, body: { isActive: true } });
      expect((await submit(t, drop.slug, withFile())).status).toBe(201);
    });

    it('410 drop_expired', async () => {
      const drop = await createDrop({ expiresAt: new Date(Date.now() + 1500).toISOString() });
      await new Promise((r) => setTimeout(r, 1600));
      const res = await refused(drop.slug, () => submit(t, drop.slug, withFile()));
      expectError({ status: res.status! }, res.body, 410, 'drop_expired');
      const pub = await t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug: drop.slug } } });
      expect(pub.data!.drop.acceptingSubmissions).toBe(false);
    });

    it('403 drop_paused wins over 410 drop_expired (checks in order)', async () => {
      const drop = await createDrop({ expiresAt: new Date(Date.now() + 1000).toISOString() });
      await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: drop.slug } }, body: { isActive: false } });
      await new Promise((r) => setTimeout(r, 1100));
      const res = await refused(drop.slug, () => submit(t, drop.slug, withFile()));
      expectError({ status: res.status! }, res.body, 403, 'drop_paused');
    });

    it('400 validation_failed: senderEmail required by the drop', async () => {
      const drop = await createDrop({ requireSenderEmail: true });
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({ senderName: 'S' }, { data: image, name: 'p.png' })));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
      expect(res.body.error.details).toEqual([{ path: 'body/senderEmail', message: expect.any(String) }]);
    });

    it('400 validation_failed: a blank message on a drop that requires one', async () => {
      const drop = await createDrop({ requireMessage: true });
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({ message: '   ' }, { data: image, name: 'p.png' })));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
      expect(res.body.error.details).toEqual([{ path: 'body/message', message: expect.any(String) }]);
    });

    it('400 validation_failed: an e-mail address that is not one', async () => {
      const drop = await createDrop();
      const res = await refused(drop.slug, () => submit(t, drop.slug, withFile({ senderEmail: 'not-an-email' })));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
      expect(res.body.error.details[0].path).toBe('body/senderEmail');
    });

    it('400 validation_failed: a message over 5000 characters', async () => {
      const drop = await createDrop();
      const res = await refused(drop.slug, () => submit(t, drop.slug, withFile({ message: 'x'.repeat(5001) })));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
    });

    it('400 validation_failed: no file part', async () => {
      const drop = await createDrop();
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({ senderName: 'S', senderEmail: 's@example.com' })));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
      expect(res.body.error.details).toEqual([{ path: 'body/file', message: expect.any(String) }]);
    });

    it('400 validation_failed: the file in a part not named "file"', async () => {
      const drop = await createDrop();
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({}, { data: image, name: 'p.png' }, 'attachment')));
      expectError({ status: res.status! }, res.body, 400, 'validation_failed');
    });

    it('413 file_too_large: a declared Content-Length over the limit is refused before reading', async () => {
      const drop = await createDrop({ maxFileSizeMB: 1 });
      const big = Buffer.alloc(3 * MiB, 7);
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({}, { data: big, name: 'big.bin' })));
      // The server answers without storing the rest, and reads it away (lingering close) so the 413 arrives.
      expectError({ status: res.status! }, res.body, 413, 'file_too_large');
    });

    it('413 file_too_large: a chunked upload is cut off while streaming', async () => {
      const drop = await createDrop({ maxFileSizeMB: 1 });
      const { body, contentType } = streamedForm({ fileName: 'big.bin', size: 3 * MiB });
      const res = await refused(drop.slug, () => send(t, drop.slug, { body: body as any, duplex: 'half', headers: { 'content-type': contentType } }));
      expectError({ status: res.status! }, res.body, 413, 'file_too_large');
      body.destroy();
    });

    it('413 file_too_large: just over the limit, with a Content-Length that passes the early check', async () => {
      const drop = await createDrop({ maxFileSizeMB: 1 });
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({}, { data: Buffer.alloc(MiB + 1, 1), name: 'over.bin' })));
      expectError({ status: res.status! }, res.body, 413, 'file_too_large');
    });

    it('415 kind_not_allowed: text bytes named photo.png on an image-only drop', async () => {
      const drop = await createDrop({ allowedKinds: 'image' });
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({}, { data: 'just some text, not a picture\n'.repeat(50), name: 'photo.png', type: 'image/png' })));
      expectError({ status: res.status! }, res.body, 415, 'kind_not_allowed');
      expect(res.body.error.message).toContain('image');
    });

    it('415 kind_not_allowed: a PNG on a video-only drop', async () => {
      const drop = await createDrop({ allowedKinds: 'video' });
      const res = await refused(drop.slug, () => submit(t, drop.slug, form({}, { data: image, name: 'clip.mp4', type: 'video/mp4' })));
      expectError({ status: res.status! }, res.body, 415, 'kind_not_allowed');
    });

    it('415 kind_not_allowed: a large file of the wrong kind is refused from its first bytes', async () => {
      const drop = await createDrop({ allowedKinds: 'image', maxFileSizeMB: 10 });
      const { body, contentType } = streamedForm({ fileName: 'fake.png', fileType: 'image/png', size: 5 * MiB });
      const res = await refused(drop.slug, () => send(t, drop.slug, { body: body as any, duplex: 'half', headers: { 'content-type': contentType } }));
      expectError({ status: res.status! }, res.body, 415, 'kind_not_allowed');
      body.destroy();
    });

    it.each([
      ['JSON', 'application/json', JSON.stringify({ senderName: 'x' })],
      ['plain text', 'text/plain', 'hello'],
      ['raw bytes', 'application/octet-stream', 'hello'],
      ['urlencoded', 'application/x-www-form-urlencoded', 'senderName=x'],
    ])('415 unsupported_media_type: a %s body', async (_label, type, payload) => {
      const drop = await createDrop();
      const res = await refused(drop.slug, () => send(t, drop.slug, { body: payload, headers: { 'content-type': type } }));
      expectError({ status: res.status! }, res.body, 415, 'unsupported_media_type');
    });

    it('a sender who goes away mid-upload leaves neither row nor file (nor temp file)', async () => {
      const drop = await createDrop();
      // 1 MiB of a 50 MiB file, then the sender stalls: the body never ends, so the abort below is
      // mid-upload however fast the machine (a timer could fire after the whole body was sent).
      const { body, contentType } = stallingForm({ fileName: 'big.bin', declaredSize: 50 * MiB, sentBytes: MiB });
      const abort = new AbortController();
      const res = await refused(drop.slug, async () => {
        const answer = send(t, drop.slug, { body: body as any, duplex: 'half', headers: { 'content-type': contentType }, signal: abort.signal });
        // The server is writing the file once its temp file exists: that is when the sender goes away.
        const writing = await eventually(async () => (await storedFiles(dir)).some((f) => f.startsWith('.tmp/')), 20_000);
        expect(writing).toBe(true);
        abort.abort();
        return answer;
      });
      expect(res.status).toBeNull();
    });

    it('the app still serves requests after every refusal above', async () => {
      const drop = await createDrop();
      const res = await submit(t, drop.slug, form({}, { data: image, name: 'after.png' }));
      expect(res.status).toBe(201);
    });
  });

  describe('GET /v1/public/drops/{slug}', () => {
    it('the public view, and 404 for an unknown drop', async () => {
      const drop = await createDrop({ allowedKinds: 'image', maxFileSizeMB: 3, requireSenderEmail: true });
      const res = await t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug: drop.slug } } });
      expect(res.data!.drop).toEqual({
        slug: drop.slug,
        name: 'Inbox',
        description: '',
        emoji: null,
        accentColor: null,
        allowedKinds: 'image',
        maxFileSizeMB: 3,
        requireSenderEmail: true,
        requireMessage: false,
        acceptingSubmissions: true,
        requiresPassword: false,
        expiresAt: null,
        acceptLateUntil: null,
        maxSubmissions: null,
        maxTotalMB: null,
        allowedExtensions: null,
      });
      const missing = await t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug: uniqueSlug('gone') } } });
      expectError(missing.response, missing.error, 404, 'not_found');
    });
  });
});

describe('public intake rate limit (per client IP)', () => {
  let t: TestApp;
  let dir: string;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await tempStorageDir('intake-rl');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '2' });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  it('429 rate_limited past PUBLIC_RATE_LIMIT requests per second, with Retry-After, keeping nothing', async () => {
    const { data } = await owner.client.POST('/v1/drops', { body: { name: 'Busy', slug: uniqueSlug() } });
    const slug = data!.drop.slug;
    const image = await png();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(t, slug, form({}, { data: image, name: `${i}.png` }))));
    const ok = answers.filter((a) => a.status === 201);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length + limited.length).toBe(6);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(4); // two per second; the burst may straddle one window boundary
    expect(limited.length).toBeGreaterThanOrEqual(2);
    for (const a of limited) {
      expectError({ status: a.status! }, a.body, 429, 'rate_limited');
      expect(a.body.error.message).toMatch(/Rate limit of 2 requests per second exceeded; retry in \d+ s\./);
      expect(Number(a.headers!.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Only the accepted uploads were kept.
    const snap = await ownerSnapshot(owner, slug);
    expect(snap.submissionCount).toBe(ok.length);
    expect(snap.ids.sort()).toEqual(ok.map((a) => a.body.submission.id).sort());
    expect(await storedFiles(dir)).toHaveLength(ok.length);
  });
});
