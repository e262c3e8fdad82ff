import { expectError } from '../../support/expect-error';
import { ownerSnapshot, png, removeDir, storedFiles, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tusCreate, tusPatch } from '../../support/tus';

/**
 * Nothing a sender sends is lost: text fields after the file part (`curl -F file=@x -F senderName=Ada`)
 * are read and stored; a required field that only comes after the file is checked then, and a
 * refusal removes the stored file and creates no row. tus metadata in any order keeps every field.
 */
describe('sender fields after the file', () => {
  let dir: string;
  let t: TestApp;
  let owner: Tenant;
  let image: Buffer;

  beforeAll(async () => {
    dir = await tempStorageDir('fields-after');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant();
    image = await png();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  async function createDrop(body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('after');
    const { response } = await owner.client.POST('/v1/drops', { body: { name: 'Inbox', slug, ...body } as any });
    expect(response.status).toBe(201);
    return slug;
  }

  /** The file part first, then the text fields: what `curl -F file=@x -F senderName=Ada` sends. */
  function fileFirst(fields: Record<string, string>): FormData {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'plans.png');
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return fd;
  }

  async function sendersOf(slug: string) {
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
    return data!.submissions.map((s) => ({ senderName: s.senderName, senderEmail: s.senderEmail, message: s.message }));
  }

  it('multipart: fields after the file are stored', async () => {
    const slug = await createDrop();
    const res = await submit(t, slug, fileFirst({ senderName: 'Ada', senderEmail: 'ada@example.com', message: 'After the file' }));
    expect(res.status).toBe(201);
    expect(await sendersOf(slug)).toEqual([{ senderName: 'Ada', senderEmail: 'ada@example.com', message: 'After the file' }]);
  });

  it('multipart: a required field sent only after the file is accepted', async () => {
    const slug = await createDrop({ requireSenderEmail: true, requireMessage: true });
    const res = await submit(t, slug, fileFirst({ senderEmail: 'ada@example.com', message: 'late but here' }));
    expect(res.status).toBe(201);
    expect(await sendersOf(slug)).toEqual([{ senderName: null, senderEmail: 'ada@example.com', message: 'late but here' }]);
  });

  it('multipart: a required field missing from the whole form, or malformed after the file, removes the stored file and leaves no row', async () => {
    const slug = await createDrop({ requireSenderEmail: true });
    const before = await storedFiles(dir);
    const missing = await submit(t, slug, fileFirst({ senderName: 'Ada' }));
    expectError({ status: missing.status! }, missing.body, 400, 'validation_failed');
    expect(missing.body.error.details).toEqual([{ path: 'body/senderEmail', message: 'is required by this drop' }]);
    const malformed = await submit(t, slug, fileFirst({ senderEmail: 'not-an-email' }));
    expectError({ status: malformed.status! }, malformed.body, 400, 'validation_failed');
    expect(await storedFiles(dir)).toEqual(before);
    expect(await ownerSnapshot(owner, slug)).toEqual({ submissionCount: 0, totalBytes: 0, ids: [] });
  });

  it('tus: sender fields before the file name in Upload-Metadata are stored', async () => {
    const slug = await createDrop({ requireSenderEmail: true });
    const created = await tusCreate(`${t.baseUrl}/v1/public/drops/${slug}/tus`, image.length, {
      message: 'metadata reversed',
      senderEmail: 'ada@example.com',
      senderName: 'Ada',
      filename: 'plans.png',
    });
    expect(created.status).toBe(201);
    const done = await tusPatch(created.location, 0, image);
    expect(done.status).toBe(204);
    expect(await sendersOf(slug)).toEqual([{ senderName: 'Ada', senderEmail: 'ada@example.com', message: 'metadata reversed' }]);
  });
});
