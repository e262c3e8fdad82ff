import { form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * A kind-restricted drop vouches for what a file is: the stored name's extension follows the
 * bytes (`invoice.html` holding a PNG becomes `invoice.png`), and the download carries the
 * sniffed Content-Type, still as an attachment with nosniff.
 */
describe('stored names and downloads follow the sniffed type', () => {
  let t: TestApp;
  let owner: Tenant;
  let dir: string;

  beforeAll(async () => {
    dir = await tempStorageDir('sniffed');
    t = await startTestApp({ STORAGE_DIR: dir });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t.close();
    await removeDir(dir);
  });

  async function sendTo(allowedKinds: 'image' | 'any', name: string) {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'kinds', slug, allowedKinds } });
    const answer = await submit(t, slug, form({}, { data: await png(), name, type: 'text/html' }));
    expect(answer.status).toBe(201);
    const id = answer.body.submission.id as string;
    const listed = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
    return { submission: listed.data!.submission, url: link.data!.url };
  }

  it.each([
    ['invoice.html', 'invoice.png'],
    ['photo', 'photo.png'],
    ['holiday.PNG', 'holiday.PNG'],
  ])('an image drop stores %s holding PNG bytes as %s', async (sent, stored) => {
    const { submission } = await sendTo('image', sent);
    expect(submission.fileName).toBe(stored);
    expect(submission.fileMime).toBe('image/png');
  });

  it('the download is image/png, an attachment under the corrected name, nosniff', async () => {
    const { url } = await sendTo('image', 'invoice.html');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;.*filename="invoice\.png"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('the type is signed: swapping it for text/html is 403 invalid_signature', async () => {
    const { url } = await sendTo('image', 'x.png');
    const forged = new URL(url);
    forged.searchParams.set('type', 'text/html');
    const res = await fetch(forged);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('invalid_signature');
  });
});
