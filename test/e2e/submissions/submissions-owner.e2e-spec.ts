import { DataSource } from 'typeorm';
import { LocalStorageDriver } from '../../../src/storage/local-storage.driver';
import { STORAGE } from '../../../src/storage/storage.driver';
import { expectError } from '../../support/expect-error';
import { form, png, removeDir, storedFiles, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

/** The owner's side of submissions (docs/decisions.md §5–6): list, read, flag, delete, download, cascade. */
describe('submissions (owner API)', () => {
  let t: TestApp;
  let dir: string;
  let owner: Tenant;
  let stranger: Tenant;
  let db: DataSource;
  let storage: LocalStorageDriver;

  beforeAll(async () => {
    dir = await tempStorageDir('owner');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant();
    stranger = await t.newTenant();
    db = t.app.get(DataSource);
    storage = t.app.get(STORAGE);
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  const newDrop = async (tenant = owner) => {
    const { data } = await tenant.client.POST('/v1/drops', { body: { name: 'Inbox', slug: uniqueSlug() } });
    return data!.drop.slug;
  };
  /** Sends one file through the public intake; returns the submission id. */
  const upload = async (slug: string, data: Buffer | string, name: string) => {
    const res = await submit(t, slug, form({ senderName: 'Sender', senderEmail: 'sender@example.com' }, { data, name }));
    expect(res.status).toBe(201);
    return res.body.submission.id as string;
  };
  const path = (slug: string, id: string) => ({ params: { path: { slug, id } } });
  const get = (slug: string, id: string, tenant = owner) => tenant.client.GET('/v1/drops/{slug}/submissions/{id}', path(slug, id));
  const patch = (slug: string, id: string, body: Record<string, unknown>) => owner.client.PATCH('/v1/drops/{slug}/submissions/{id}', { ...path(slug, id), body: body as any });
  const dropOf = async (slug: string) => (await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } })).data!.drop;
  const storageKeyOf = async (id: string): Promise<string> => (await db.query('SELECT storage_key FROM submissions WHERE id = $1', [id]))[0].storage_key;
  const fileExists = async (key: string) => (await storedFiles(dir)).includes(storage.pathOf(key).slice(dir.length + 1));

  describe('list', () => {
    let slug: string;
    let ids: string[]; // in upload order

    beforeAll(async () => {
      slug = await newDrop();
      ids = [];
      for (let i = 0; i < 5; i++) ids.push(await upload(slug, `file ${i}\n`, `f${i}.txt`));
    });

    it('newest first, {submissions, nextCursor: null} on a single page', async () => {
      const { response, data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
      expect(response.status).toBe(200);
      expect(data!.submissions.map((s) => s.id)).toEqual([...ids].reverse());
      expect(data!.nextCursor).toBeNull();
      expect(data!.submissions[0]).toMatchObject({ fileName: 'f4.txt', senderName: 'Sender', senderEmail: 'sender@example.com', message: null });
    });

    it('pages with limit and cursor, without gaps or repeats', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      do {
        const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug }, query: { limit: 2, cursor } } });
        sizes.push(data!.submissions.length);
        seen.push(...data!.submissions.map((s) => s.id));
        cursor = data!.nextCursor ?? undefined;
      } while (cursor);
      expect(sizes).toEqual([2, 2, 1]);
      expect(seen).toEqual([...ids].reverse());
    });

    it('filters by isRead, isStarred and isArchived, coerced from query strings', async () => {
      await patch(slug, ids[0], { isRead: true });
      await patch(slug, ids[1], { isRead: true, isStarred: true });
      await patch(slug, ids[2], { isArchived: true });
      const query = async (qs: string) => {
        const res = await contractFetch(`${t.baseUrl}/v1/drops/${slug}/submissions?${qs}`, { headers: { authorization: `Bearer ${owner.token}` } });
        expect(res.status).toBe(200);
        return ((await res.json()).submissions as { id: string }[]).map((s) => s.id);
      };
      expect(await query('isRead=true')).toEqual([ids[1], ids[0]]);
      expect(await query('isRead=false')).toEqual([ids[4], ids[3], ids[2]]);
      expect(await query('isStarred=true')).toEqual([ids[1]]);
      expect(await query('isArchived=true')).toEqual([ids[2]]);
      expect(await query('isArchived=false&isRead=false')).toEqual([ids[4], ids[3]]);
      expect(await query('isRead=true&isStarred=false&limit=1')).toEqual([ids[0]]);
      // The generated client sends the same thing.
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug }, query: { isStarred: false, isArchived: false } } });
      expect(data!.submissions.map((s) => s.id)).toEqual([ids[4], ids[3], ids[0]]);
    });

    it.each([['limit=0'], ['limit=101'], ['limit=abc'], ['isRead=maybe'], ['cursor=not-a-cursor']])('400 validation_failed for %s', async (qs) => {
      const res = await contractFetch(`${t.baseUrl}/v1/drops/${slug}/submissions?${qs}`, { headers: { authorization: `Bearer ${owner.token}` } });
      expectError(res, await res.json(), 400, 'validation_failed');
    });

    it("404 for another account's drop and for an unknown drop", async () => {
      const res = await stranger.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
      expectError(res.response, res.error, 404, 'not_found');
      const missing = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug: uniqueSlug('gone') } } });
      expectError(missing.response, missing.error, 404, 'not_found');
    });

    it('an empty drop lists nothing', async () => {
      const empty = await newDrop();
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug: empty } } });
      expect(data).toEqual({ submissions: [], nextCursor: null });
    });
  });

  describe('get', () => {
    it("the owner's submission; 404 for another account, an unknown id, or another of the owner's drops", async () => {
      const slug = await newDrop();
      const id = await upload(slug, 'hello', 'hello.txt');
      const { response, data } = await get(slug, id);
      expect(response.status).toBe(200);
      expect(data!.submission).toMatchObject({ id, fileName: 'hello.txt', fileSize: 5, fileKind: 'document', status: 'ready' });

      const theirs = await get(slug, id, stranger);
      expectError(theirs.response, theirs.error, 404, 'not_found');
      const unknown = await get(slug, 'sub_0000000000000000');
      expectError(unknown.response, unknown.error, 404, 'not_found');
      const otherDrop = await newDrop();
      const wrongDrop = await get(otherDrop, id);
      expectError(wrongDrop.response, wrongDrop.error, 404, 'not_found');
      const malformed = await get(slug, 'not-an-id');
      expectError(malformed.response, malformed.error, 404, 'not_found');
    });
  });

  describe('patch', () => {
    let slug: string;
    let id: string;
    beforeAll(async () => {
      slug = await newDrop();
      id = await upload(slug, 'flags', 'flags.txt');
    });
    const flags = async () => {
      const s = (await get(slug, id)).data!.submission;
      return { isRead: s.isRead, isStarred: s.isStarred, isArchived: s.isArchived };
    };

    it('sets each flag independently and returns {submission}', async () => {
      expect(await flags()).toEqual({ isRead: false, isStarred: false, isArchived: false });
      const read = await patch(slug, id, { isRead: true });
      expect(read.response.status).toBe(200);
      expect(read.data!.submission).toMatchObject({ id, isRead: true, isStarred: false, isArchived: false, fileName: 'flags.txt' });
      const starred = await patch(slug, id, { isStarred: true });
      expect(starred.data!.submission).toMatchObject({ isRead: true, isStarred: true, isArchived: false });
      const archived = await patch(slug, id, { isArchived: true });
      expect(archived.data!.submission).toMatchObject({ isRead: true, isStarred: true, isArchived: true });
      const reset = await patch(slug, id, { isRead: false, isStarred: false, isArchived: false });
      expect(reset.data!.submission).toMatchObject({ isRead: false, isStarred: false, isArchived: false });
      expect(await flags()).toEqual({ isRead: false, isStarred: false, isArchived: false });
      const empty = await patch(slug, id, {});
      expect(empty.response.status).toBe(200);
      expect(empty.data!.submission).toMatchObject({ isRead: false, isStarred: false, isArchived: false });
    });

    it.each([
      ['an unknown field', { isRead: true, fileName: 'evil.exe' }],
      ['only an unknown field', { status: 'failed' }],
      ['a string for a boolean', { isRead: 'true' }],
      ['a number for a boolean', { isStarred: 1 }],
      ['null for a boolean', { isArchived: null }],
      ['an array body', [true]],
    ])('400 validation_failed for %s, and nothing changes', async (_label, body) => {
      const before = (await get(slug, id)).data!.submission;
      const res = await patch(slug, id, body as Record<string, unknown>);
      expectError(res.response, res.error, 400, 'validation_failed');
      expect((await get(slug, id)).data!.submission).toEqual(before);
    });

    it('415 for a body that is not JSON; 404 for an unknown id', async () => {
      const res = await contractFetch(`${t.baseUrl}/v1/drops/${slug}/submissions/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' },
        body: 'isRead=true',
      });
      expectError(res, await res.json(), 415, 'unsupported_media_type');
      const unknown = await patch(slug, 'sub_0000000000000000', { isRead: true });
      expectError(unknown.response, unknown.error, 404, 'not_found');
    });

    it('403 insufficient_scope for a key with drops:read only', async () => {
      const reader = await t.newKey(owner.account.id, { scopes: ['drops:read'] });
      expect((await reader.client.GET('/v1/drops/{slug}/submissions/{id}', path(slug, id))).response.status).toBe(200);
      const res = await reader.client.PATCH('/v1/drops/{slug}/submissions/{id}', { ...path(slug, id), body: { isRead: true } });
      expectError(res.response, res.error, 403, 'insufficient_scope');
      const del = await reader.client.DELETE('/v1/drops/{slug}/submissions/{id}', path(slug, id));
      expectError(del.response, del.error, 403, 'insufficient_scope');
      expect(await flags()).toMatchObject({ isRead: false });
    });
  });

  describe('delete', () => {
    it('204: removes the row, updates the counters and deletes the stored file', async () => {
      const slug = await newDrop();
      const keep = await upload(slug, 'keep me', 'keep.txt');
      const image = await png();
      const gone = await upload(slug, image, 'gone.png');
      const key = await storageKeyOf(gone);
      expect(await fileExists(key)).toBe(true);
      expect(await dropOf(slug)).toMatchObject({ submissionCount: 2, totalBytes: 7 + image.length });

      const res = await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', path(slug, gone));
      expect(res.response.status).toBe(204);
      expect(await res.response.text()).toBe('');

      const after = await get(slug, gone);
      expectError(after.response, after.error, 404, 'not_found');
      expect(await dropOf(slug)).toMatchObject({ submissionCount: 1, totalBytes: 7 });
      expect(await fileExists(key)).toBe(false);
      expect(await fileExists(await storageKeyOf(keep))).toBe(true);
      const list = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
      expect(list.data!.submissions.map((s) => s.id)).toEqual([keep]);

      const again = await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', path(slug, gone));
      expectError(again.response, again.error, 404, 'not_found');
      expect(await dropOf(slug)).toMatchObject({ submissionCount: 1, totalBytes: 7 });
    });

    it("404 for another account's submission, which stays", async () => {
      const slug = await newDrop();
      const id = await upload(slug, 'mine', 'mine.txt');
      const res = await stranger.client.DELETE('/v1/drops/{slug}/submissions/{id}', path(slug, id));
      expectError(res.response, res.error, 404, 'not_found');
      expect((await get(slug, id)).response.status).toBe(200);
      expect(await fileExists(await storageKeyOf(id))).toBe(true);
    });
  });

  describe('download', () => {
    // No `"` in it: browsers and undici send it as `%22` in the multipart header (WHATWG), which arrives verbatim.
    const name = 'Bericht über Q3 (final).pdf';
    let slug: string;
    let id: string;
    let bytes: Buffer;
    beforeAll(async () => {
      slug = await newDrop();
      bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(300_000, 0x41), Buffer.from('\n%%EOF\n')]);
      id = await upload(slug, bytes, name);
    });

    it('{url, expiresIn: 3600, file: "original"}; the URL serves the identical bytes named after the original file', async () => {
      const { response, data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', path(slug, id));
      expect(response.status).toBe(200);
      expect(data).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\//), expiresIn: 3600, file: 'original' });
      const expires = Number(new URL(data!.url).searchParams.get('expires'));
      expect(expires - Date.now() / 1000).toBeGreaterThan(3590);
      expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);

      const file = await contractFetch(data!.url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="Bericht _ber Q3 (final).pdf"; filename*=UTF-8''Bericht%20%C3%BCber%20Q3%20%28final%29.pdf`);
      // Ranges work on it too.
      const part = await contractFetch(data!.url, { headers: { range: 'bytes=0-8' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('%PDF-1.4\n');
    });

    it('processed=false is the original; processed=true is 409 processed_unavailable without a processed file', async () => {
      const original = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id }, query: { processed: false } } });
      expect(original.data!.file).toBe('original');
      const processed = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id }, query: { processed: true } } });
      expectError(processed.response, processed.error, 409, 'processed_unavailable');
    });

    it("404 for another account's drop, an unknown id, and a deleted submission's URL", async () => {
      const theirs = await stranger.client.GET('/v1/drops/{slug}/submissions/{id}/download', path(slug, id));
      expectError(theirs.response, theirs.error, 404, 'not_found');
      const unknown = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', path(slug, 'sub_0000000000000000'));
      expectError(unknown.response, unknown.error, 404, 'not_found');

      const other = await upload(slug, 'short-lived', 'short.txt');
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', path(slug, other));
      expect((await contractFetch(data!.url)).status).toBe(200);
      await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', path(slug, other));
      const after = await contractFetch(data!.url);
      expectError(after, await after.json(), 404, 'not_found');
    });
  });

  describe('deleting a drop', () => {
    it('removes every submission row and every stored file of that drop, and nothing else', async () => {
      const slug = await newDrop();
      const bystander = await newDrop();
      const kept = await upload(bystander, 'not mine to delete', 'b.txt');
      const image = await png();
      const ids = [await upload(slug, image, 'a.png'), await upload(slug, 'two', 'b.txt'), await upload(slug, 'three', 'c.txt')];
      const keys = await Promise.all(ids.map(storageKeyOf));
      const dropId = (await db.query('SELECT drop_id FROM submissions WHERE id = $1', [ids[0]]))[0].drop_id;
      for (const key of keys) expect(await fileExists(key)).toBe(true);
      const filesBefore = await storedFiles(dir);

      const res = await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expect(res.response.status).toBe(204);

      for (const key of keys) expect(await fileExists(key)).toBe(false);
      expect(await storedFiles(dir)).toEqual(filesBefore.filter((f) => !keys.some((k) => f.endsWith(k))));
      expect((await db.query('SELECT count(*)::int AS n FROM submissions WHERE drop_id = $1', [dropId]))[0].n).toBe(0);
      expect((await db.query('SELECT count(*)::int AS n FROM submissions WHERE id = ANY($1)', [ids]))[0].n).toBe(0);
      const gone = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
      expectError(gone.response, gone.error, 404, 'not_found');
      const intake = await submit(t, slug, form({}, { data: image, name: 'late.png' }));
      expect(intake.status).toBe(404);

      expect((await get(bystander, kept)).response.status).toBe(200);
      expect(await fileExists(await storageKeyOf(kept))).toBe(true);
    });

    it('while files are still arriving: every accepted file is deleted, every late one refused; none left on disk', async () => {
      // Before the fix the keys were read before a separate DELETE: submissions committed in
      // between were cascaded away and their files stayed on disk (dozens per round).
      const data = Buffer.alloc(100_000, 1);
      for (let round = 0; round < 3; round++) {
        const slug = await newDrop();
        const filesBefore = await storedFiles(dir);
        const uploads = Array.from({ length: 40 }, (_, i) => submit(t, slug, form({}, { data, name: `${i}.bin` })));
        await Promise.race(uploads); // some are in, the rest in flight
        const del = await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
        expect(del.response.status).toBe(204);
        const answers = await Promise.all(uploads);
        for (const a of answers) expect([201, 404]).toContain(a.status);
        expect(await storedFiles(dir)).toEqual(filesBefore);
      }
    });

    it("404 for another account's drop, whose files stay", async () => {
      const slug = await newDrop();
      const id = await upload(slug, 'stay', 'stay.txt');
      const res = await stranger.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } });
      expectError(res.response, res.error, 404, 'not_found');
      expect(await fileExists(await storageKeyOf(id))).toBe(true);
    });
  });
});
