import { Client } from 'pg';
import { expectError } from '../../support/expect-error';
import { TEST_DATABASE_URL } from '../../support/env';
import { form, MiB, png, removeDir, send, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tusCreate, tusPatch } from '../../support/tus';

/**
 * Drops people can trust (issue 22), through the API: a password on every public operation (401
 * without, 403 wrong, 429 past 10 wrong tries a minute per address and drop), `maxSubmissions`
 * and `maxTotalMB` under 20 concurrent senders, `allowedExtensions` with the sniffed content, and
 * the late-arrival grace of `acceptLateUntil`.
 */
describe('drop password, limits, extensions and grace', () => {
  let t: TestApp;
  let owner: Tenant;
  let dir: string;
  let db: Client;
  let image: Buffer;

  beforeAll(async () => {
    dir = await tempStorageDir('trust');
    t = await startTestApp({ STORAGE_DIR: dir });
    owner = await t.newTenant();
    db = new Client({ connectionString: TEST_DATABASE_URL });
    await db.connect();
    image = await png();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    await removeDir(dir);
  });

  async function createDrop(body: Record<string, unknown>): Promise<string> {
    const slug = uniqueSlug('trust');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { name: 'Contract papers', slug, ...body } as any });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const publicDrop = (slug: string, password?: string) =>
    t.client().GET('/v1/public/drops/{slug}', { params: { path: { slug }, header: password === undefined ? {} : { 'Drop-Password': password } } as any });
  const sendFile = (slug: string, file: { data: Buffer | string; name: string }, password?: string) =>
    send(t, slug, { body: form({}, file), headers: password === undefined ? {} : { 'drop-password': password } });

  it('a drop with a password refuses without it (401, only the name shown) and with a wrong one (403), and takes the right one', async () => {
    const slug = await createDrop({ password: 'open sesame 42', description: 'Secret description' });
    const owned = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
    expect(owned.data!.drop.hasPassword).toBe(true);
    expect(JSON.stringify(owned.data)).not.toMatch(/sesame|scrypt/);

    const locked = await publicDrop(slug);
    expect(locked.response.status).toBe(401);
    expect(locked.error).toEqual({ error: { code: 'password_required', message: expect.any(String) }, drop: { name: 'Contract papers', requiresPassword: true } });
    expect(JSON.stringify(locked.error)).not.toContain('Secret description');
    const wrong = await publicDrop(slug, 'open sesame 43');
    expectError(wrong.response, wrong.error, 403, 'wrong_password');
    const right = await publicDrop(slug, 'open sesame 42');
    expect(right.response.status).toBe(200);
    expect(right.data!.drop).toMatchObject({ name: 'Contract papers', description: 'Secret description', requiresPassword: true, acceptingSubmissions: true });

    const file = { data: image, name: 'photo.png' };
    expect((await sendFile(slug, file)).status).toBe(401);
    const wrongSend = await sendFile(slug, file, 'nope nope');
    expectError({ status: wrongSend.status! }, wrongSend.body, 403, 'wrong_password');
    const sent = await sendFile(slug, file, 'open sesame 42');
    expect(sent.status).toBe(201);

    // tus creation: the same gate.
    const collection = `${t.baseUrl}/v1/public/drops/${slug}/tus`;
    expect((await tusCreate(collection, image.length, { filename: 'a.png' })).status).toBe(401);
    expect((await tusCreate(collection, image.length, { filename: 'a.png' }, { 'drop-password': 'wrong one!' })).status).toBe(403);
    const created = await tusCreate(collection, image.length, { filename: 'a.png' }, { 'drop-password': 'open sesame 42' });
    expect(created.status).toBe(201);
    const done = await tusPatch(created.location, 0, image);
    expect(done.status).toBe(204);

    // null removes the password.
    const patched = await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: { password: null } });
    expect(patched.data!.drop.hasPassword).toBe(false);
    expect((await publicDrop(slug)).response.status).toBe(200);
  });

  it('the 11th wrong password in a minute from one address is 429 with Retry-After, even if it is right', async () => {
    const slug = await createDrop({ password: 'correct horse battery' });
    for (let i = 1; i <= 10; i++) {
      const wrong = await publicDrop(slug, `guess number ${i}`);
      expect(wrong.response.status).toBe(403);
    }
    const eleventh = await publicDrop(slug, 'guess number 11');
    expectError(eleventh.response, eleventh.error, 429, 'rate_limited');
    expect(Number(eleventh.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await publicDrop(slug, 'correct horse battery')).response.status).toBe(429);
    expect((await sendFile(slug, { data: image, name: 'p.png' }, 'correct horse battery')).status).toBe(429);
    // Another drop is counted apart.
    const other = await createDrop({ password: 'correct horse battery' });
    expect((await publicDrop(other, 'correct horse battery')).response.status).toBe(200);
  });

  it('maxSubmissions holds under 20 concurrent senders', async () => {
    const slug = await createDrop({ maxSubmissions: 5 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => sendFile(slug, { data: image, name: `p${i}.png` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('drop_full');
    const drop = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
    expect(drop.data!.drop.submissionCount).toBe(5);
    const view = await publicDrop(slug);
    expect(view.data!.drop).toMatchObject({ maxSubmissions: 5, acceptingSubmissions: false });
    const after = await sendFile(slug, { data: image, name: 'after.png' });
    expectError({ status: after.status! }, after.body, 409, 'drop_full');
  });

  it('maxTotalMB holds under 20 concurrent senders (multipart and tus), and Upload-Length past it is refused at creation', async () => {
    const slug = await createDrop({ maxTotalMB: 1 });
    // 20 files of 300 KiB into 1 MiB: exactly 3 fit.
    const big = Buffer.concat([image, Buffer.alloc(300 * 1024 - image.length, 7)]);
    const collection = `${t.baseUrl}/v1/public/drops/${slug}/tus`;
    const viaTus = async (i: number) => {
      const created = await tusCreate(collection, big.length, { filename: `t${i}.png` });
      if (created.status !== 201) return created.status;
      return (await tusPatch(created.location, 0, big)).status;
    };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? sendFile(slug, { data: big, name: `m${i}.png` }).then((a) => a.status) : viaTus(i))));
    expect(answers.filter((s) => s === 201 || s === 204)).toHaveLength(3);
    expect(answers.filter((s) => s === 409)).toHaveLength(17);
    const drop = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
    expect(drop.data!.drop.submissionCount).toBe(3);
    expect(drop.data!.drop.totalBytes).toBeLessThanOrEqual(MiB);
    const tooBig = await tusCreate(collection, 300 * 1024, { filename: 'x.png' });
    expect(tooBig.status).toBe(409);
    expect(tooBig.body.error.code).toBe('drop_full');
  });

  it('allowedExtensions checks the name and the sniffed content (415 kind_not_allowed)', async () => {
    const slug = await createDrop({ allowedExtensions: ['pdf', 'png'] });
    expect((await sendFile(slug, { data: image, name: 'photo.png' })).status).toBe(201);
    const txt = await sendFile(slug, { data: 'plain words', name: 'notes.txt' });
    expectError({ status: txt.status! }, txt.body, 415, 'kind_not_allowed');
    // A ZIP named invoice.pdf: the name is allowed, the sniffed content (zip) is not.
    const zip = Buffer.from('504b0304140000000800', 'hex');
    const disguised = await sendFile(slug, { data: Buffer.concat([zip, Buffer.alloc(200)]), name: 'invoice.pdf' });
    expectError({ status: disguised.status! }, disguised.body, 415, 'kind_not_allowed');
    const tusRefused = await tusCreate(`${t.baseUrl}/v1/public/drops/${slug}/tus`, 10, { filename: 'setup.exe' });
    expect(tusRefused.status).toBe(415);
  });

  it('a file after expiresAt but within acceptLateUntil is accepted and flagged isLate; after the grace, 410', async () => {
    const soon = new Date(Date.now() + 3600_000);
    const slug = await createDrop({ expiresAt: soon.toISOString(), acceptLateUntil: new Date(soon.getTime() + 3600_000).toISOString() });
    const onTime = await sendFile(slug, { data: image, name: 'on-time.png' });
    expect(onTime.status).toBe(201);
    // The deadline passes (moved in the database: the clock is not the test's to wait for).
    await db.query(`UPDATE drops SET expires_at = now() - interval '1 minute' WHERE slug = $1`, [slug]);
    expect((await publicDrop(slug)).data!.drop.acceptingSubmissions).toBe(true);
    const late = await sendFile(slug, { data: image, name: 'late.png' });
    expect(late.status).toBe(201);
    const list = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
    const byName = Object.fromEntries(list.data!.submissions.map((s) => [s.fileName, s]));
    expect(byName['on-time.png'].isLate).toBe(false);
    expect(byName['late.png'].isLate).toBe(true);
    expect(byName['late.png'].scan).toEqual({ status: 'unscanned' });
    await db.query(`UPDATE drops SET accept_late_until = now() - interval '1 second' WHERE slug = $1`, [slug]);
    const closed = await sendFile(slug, { data: image, name: 'too-late.png' });
    expectError({ status: closed.status! }, closed.body, 410, 'drop_expired');
    // acceptLateUntil needs an expiresAt before it.
    const bad = await owner.client.POST('/v1/drops', { body: { name: 'x', acceptLateUntil: soon.toISOString() } });
    expect(bad.response.status).toBe(400);
  });

  it('refuses a password shorter than 8 characters; /readyz says scanning is off', async () => {
    const short = await owner.client.POST('/v1/drops', { body: { name: 'x', password: 'short' } });
    expect(short.response.status).toBe(400);
    const ready = await t.client().GET('/readyz');
    expect(ready.data!.checks.scanning).toBe('off');
  });
});
