import { form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { tusCreate, tusPatch } from '../../support/tus';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Issue 26 item 6: what a sender calls a file cannot disguise it. Bidirectional controls are
 * removed (`photo\u202Egnp.exe` displayed as `photoexe.png`), a name cut to 255 characters keeps
 * its extension, and every `+xml` type is served as opaque bytes, like the other active types.
 * Through the public intake (multipart and tus) and the owner's download.
 */
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F'];
const BIDI_CLASS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F]/;
/** The same characters percent-encoded in UTF-8, as they would appear in `filename*`. */
const BIDI_ENCODED = /%E2%80%(AA|AB|AC|AD|AE|8E|8F)|%E2%81%A[6-9]/i;

describe('file names and served types', () => {
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  let slug: string;

  beforeAll(async () => {
    dir = await tempStorageDir('file-names');
    t = await startTestApp({ STORAGE_DIR: dir });
    owner = await t.newTenant();
    slug = uniqueSlug('names');
    await owner.client.POST('/v1/drops', { body: { name: 'names', slug } });
  });
  afterAll(async () => {
    await t.close();
    await removeDir(dir);
  });

  /** Sends a file by multipart; returns the stored name and the download's headers. */
  async function sendAndDownload(name: string, data: Buffer | string, type = 'application/octet-stream') {
    const answer = await submit(t, slug, form({}, { data, name, type }));
    expect(answer.status).toBe(201);
    return ownerView(answer.body.submission.id as string);
  }

  async function ownerView(id: string) {
    const listed = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
    const res = await fetch(link.data!.url);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return { submission: listed.data!.submission, headers: res.headers, url: link.data!.url };
  }

  it('photo\\u202Egnp.exe is stored and served as photognp.exe (no right-to-left override)', async () => {
    const { submission, headers, url } = await sendAndDownload('photo\u202Egnp.exe', await png());
    expect(submission.fileName).toBe('photognp.exe');
    expect(headers.get('content-disposition')).toBe(`attachment; filename="photognp.exe"; filename*=UTF-8''photognp.exe`);
    expect(decodeURIComponent(new URL(url).searchParams.get('name') ?? '')).not.toMatch(BIDI_CLASS);
  });

  it('every bidirectional control is removed, wherever it stands', async () => {
    const name = `${BIDI.map((c, i) => `${c}${String.fromCharCode(97 + i)}`).join('')}.t${BIDI[4]}xt`;
    const { submission, headers } = await sendAndDownload(name, 'plain words');
    expect(submission.fileName).toBe('abcdefghijk.txt');
    expect(headers.get('content-disposition')).not.toMatch(BIDI_ENCODED);
  });

  it('the same rule holds for a name given in tus Upload-Metadata', async () => {
    const file = await png();
    const created = await tusCreate(`${t.baseUrl}/v1/public/drops/${slug}/tus`, file.length, { filename: 'invoice\u202Efdp.exe' });
    expect(created.status).toBe(201);
    const done = await tusPatch(created.location, 0, file);
    expect(done.status).toBe(204);
    const { submission, headers } = await ownerView(done.headers.get('dropline-submission-id')!);
    expect(submission.fileName).toBe('invoicefdp.exe');
    expect(headers.get('content-disposition')).not.toMatch(BIDI_ENCODED);
  });

  it('zero-width characters (U+200B–U+200D, U+2060, U+FEFF) are removed on every intake: multipart and tus to a drop, POST /v1/uploads', async () => {
    const disguised = '\uFEFFpay\u200Bslip\u200C\u200D\u2060.p\u200Bng';
    const { submission, headers } = await sendAndDownload(disguised, await png());
    expect(submission.fileName).toBe('payslip.png');
    expect(headers.get('content-disposition')).toBe(`attachment; filename="payslip.png"; filename*=UTF-8''payslip.png`);

    const file = await png();
    const created = await tusCreate(`${t.baseUrl}/v1/public/drops/${slug}/tus`, file.length, { filename: disguised });
    const done = await tusPatch(created.location, 0, file);
    expect(done.status).toBe(204);
    expect((await ownerView(done.headers.get('dropline-submission-id')!)).submission.fileName).toBe('payslip.png');

    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), disguised);
    const uploaded = await fetch(`${t.baseUrl}/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fd });
    expect(uploaded.status).toBe(201);
    expect((await uploaded.json()).upload.fileName).toBe('payslip.png');
  });

  it.each([
    ['ASCII', 'a'],
    ['accented', 'é'],
    ['astral (surrogate pairs)', '\u{1F600}'],
  ])('a 400-character %s name is cut to 255 characters and keeps its .png', async (_label, char) => {
    const { submission, headers } = await sendAndDownload(`${char.repeat(396)}.png`, await png());
    expect(Array.from(submission.fileName)).toHaveLength(255);
    expect(submission.fileName).toBe(`${char.repeat(251)}.png`);
    const disposition = headers.get('content-disposition') ?? '';
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1] ?? '')).toBe(submission.fileName);
  });

  it.each(['text/vnd.evil+xml', 'text/xml-external-parsed-entity', 'text/x-page+xml'])('a document declared %s is served as application/octet-stream', async (type) => {
    const xhtml = '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(document.domain)</script></html>';
    const { submission, headers } = await sendAndDownload('page.xml', xhtml, type);
    expect(submission.fileMime).toBe(type);
    expect(headers.get('content-type')).toBe('application/octet-stream');
    expect(headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a harmless text type is still served as itself', async () => {
    const { headers } = await sendAndDownload('notes.csv', 'a,b\n1,2\n', 'text/csv');
    expect(headers.get('content-type')).toBe('text/csv');
  });
});
