import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DataSource } from 'typeorm';
import { newId } from '../../../src/common/ids';
import { DropsService } from '../../../src/drops/drops.service';
import { UploadsService } from '../../../src/uploads/uploads.service';
import { expectError } from '../../support/expect-error';
import { eventually, form, MiB, ownerSnapshot, png, removeDir, storedFiles, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tus, tusCreate, tusPatch } from '../../support/tus';

/**
 * Who owns a tus upload (issue 26, items 1, 4, 5): the endpoint that creates an upload records its
 * owner — the URL's drop or the key's account — and no header can write it; an upload is seen,
 * continued and cancelled only through that endpoint, for that drop or account; the drop's rules
 * hold again when the last byte arrives; Upload-Concat is a client error; and a single-kind drop's
 * file takes the extension of its sniffed type whichever way it arrives.
 */
describe('tus uploads belong to the endpoint that created them', () => {
  let dir: string;
  let t: TestApp;
  let owner: Tenant;
  let log = '';

  beforeAll(async () => {
    dir = await tempStorageDir('tus-owner');
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    t = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: 'tus-owner-e2e-signing-secret-0123456789' }, '127.0.0.1', { logStream: stream });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  async function createDrop(tenant: Tenant, body: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('tus-own');
    const { response, error } = await tenant.client.POST('/v1/drops', { body: { name: 'Owned', slug, ...body } as any });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const dropTus = (slug: string) => `${t.baseUrl}/v1/public/drops/${slug}/tus`;
  const uploadsTus = () => `${t.baseUrl}/v1/uploads/tus`;
  const bearer = (tenant: Tenant) => ({ Authorization: `Bearer ${tenant.token}` });
  const idOf = (location: string) => location.split('/').pop()!;

  it('a free key over its plan cannot take a drop upload as its own (accountId metadata, then PATCH /v1/uploads/tus/{id})', async () => {
    const free = await t.newTenant({ plan: 'free' });
    const length = 30772329; // over the free plan's 25 MB
    const refused = await tusCreate(uploadsTus(), length, { filename: 'big.png' }, bearer(free));
    expectError(refused, refused.body, 413, 'file_too_large');

    const slug = await createDrop(owner, { maxFileSizeMB: 100 });
    // The reproduction: the other endpoint's owner key in the metadata is refused outright.
    const forged = await tusCreate(dropTus(slug), length, { filename: 'big.png', accountId: free.account.id });
    expectError(forged, forged.body, 400, 'validation_failed');
    expect(forged.body.error.details).toEqual([{ path: 'header/Upload-Metadata/accountId', message: 'is reserved' }]);
    const named = await tusCreate(dropTus(slug), length, { filename: 'big.png', owner: `account:${free.account.id}` });
    expectError(named, named.body, 400, 'validation_failed');

    // A drop's upload is not the key's, whatever the id: HEAD, PATCH and DELETE through /v1/uploads/tus are 404.
    const created = await tusCreate(dropTus(slug), length, { filename: 'big.png' });
    expect(created.status).toBe(201);
    const viaKey = `${uploadsTus()}/${idOf(created.location)}`;
    const patched = await tusPatch(viaKey, 0, Buffer.concat([await png(64, 64), randomBytes(MiB)]), bearer(free));
    expectError(patched, patched.body, 404, 'not_found');
    expect((await tus(viaKey, 'HEAD', bearer(free))).status).toBe(404);
    const deleted = await tus(viaKey, 'DELETE', bearer(free));
    expectError(deleted, deleted.body, 404, 'not_found');
    const head = await tus(created.location, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');

    // Nothing became the free account's: its job by fileId finds no upload.
    const job = await free.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId: idOf(created.location) }, options: { width: 10 } } } as any);
    expect(job.response.status).toBe(400);
    expect((await tus(created.location, 'DELETE')).status).toBe(204);
  });

  it("key B cannot send a file into A's drop past its rules (dropId metadata, then PATCH the drop's public tus URL without a key)", async () => {
    const a = await t.newTenant();
    const b = await t.newTenant();
    const slug = await createDrop(a, { maxFileSizeMB: 1, requireSenderEmail: true, requireMessage: true });
    const dropId = (await t.app.get(DropsService).findBySlug(slug)).id;
    const file = Buffer.concat([await png(32, 32), randomBytes(3 * MiB)]);

    const forged = await tusCreate(uploadsTus(), file.length, { filename: 'in-your-drop.png', dropId }, bearer(b));
    expectError(forged, forged.body, 400, 'validation_failed');
    expect(forged.body.error.details).toEqual([{ path: 'header/Upload-Metadata/dropId', message: 'is reserved' }]);

    // B's own upload is not the drop's: its public tus URL answers 404 to every method.
    const created = await tusCreate(uploadsTus(), file.length, { filename: 'in-your-drop.png' }, bearer(b));
    expect(created.status).toBe(201);
    const viaDrop = `${dropTus(slug)}/${idOf(created.location)}`;
    const patched = await tusPatch(viaDrop, 0, file);
    expectError(patched, patched.body, 404, 'not_found');
    expect((await tus(viaDrop, 'HEAD')).status).toBe(404);
    const deleted = await tus(viaDrop, 'DELETE');
    expectError(deleted, deleted.body, 404, 'not_found');
    expect(await ownerSnapshot(a, slug)).toEqual({ submissionCount: 0, totalBytes: 0, ids: [] });
    expect((await tus(created.location, 'HEAD', bearer(b))).headers.get('upload-offset')).toBe('0');
    expect((await tus(created.location, 'DELETE', bearer(b))).status).toBe(204);
  });

  it("a stranger naming the upload's id cannot interrupt the owner's PATCH: 404 before tus takes the upload lock", async () => {
    const slug = await createDrop(owner, { maxFileSizeMB: 10 });
    const file = Buffer.concat([await png(32, 32), randomBytes(2 * MiB)]);
    const created = await tusCreate(dropTus(slug), file.length, { filename: 'held.png' });
    expect(created.status).toBe(201);
    const id = idOf(created.location);
    const first = 512 * 1024;

    // The owner's PATCH sends a first part and holds the connection (and the upload lock) open.
    let pending: ClientRequest | undefined;
    const answer = new Promise<{ status: number; offset: string | undefined }>((resolve, reject) => {
      const req = request(created.location, {
        method: 'PATCH',
        agent: false,
        headers: { 'Tus-Resumable': '1.0.0', 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0', 'Content-Length': String(file.length) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, offset: res.headers['upload-offset'] as string | undefined }));
      });
      req.on('error', reject);
      req.write(file.subarray(0, first));
      pending = req;
    });
    const partial = join(dir, '.tus', id);
    const onDisk = () =>
      stat(partial).then(
        (s) => s.size,
        () => 0,
      );
    expect(await eventually(async () => (await onDisk()) >= first, 30_000)).toBe(true);

    // Another tenant's key and another drop name the id: 404 each, without touching the lock.
    const stranger = await t.newTenant();
    const viaKey = `${uploadsTus()}/${id}`;
    const patched = await tusPatch(viaKey, first, randomBytes(1024), bearer(stranger));
    expectError(patched, patched.body, 404, 'not_found');
    expect((await tus(viaKey, 'HEAD', bearer(stranger))).status).toBe(404);
    const otherSlug = await createDrop(stranger);
    expect((await tus(`${dropTus(otherSlug)}/${id}`, 'HEAD')).status).toBe(404);

    // The owner's PATCH was not asked to stop: the rest of the body completes it.
    pending!.end(file.subarray(first));
    expect(await answer).toEqual({ status: 204, offset: String(file.length) });
    expect((await ownerSnapshot(owner, slug)).submissionCount).toBe(1);
  });

  it("the drop's rules as they are when the last byte arrives: sender fields and kinds checked again, a refusal removes the upload", async () => {
    const slug = await createDrop(owner);
    const image = Buffer.concat([await png(40, 40), randomBytes(64 * 1024)]);
    const created = await tusCreate(dropTus(slug), image.length, { filename: 'late.png' });
    expect((await tusPatch(created.location, 0, image.subarray(0, 1000))).status).toBe(204);
    await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: { requireMessage: true } });
    const last = await tusPatch(created.location, 1000, image.subarray(1000));
    expectError(last, last.body, 400, 'validation_failed');
    expect((await tus(created.location, 'HEAD')).status).toBe(404);

    const text = Buffer.alloc(5000, 'plain words, then the drop turns image-only. ');
    const second = await tusCreate(dropTus(slug), text.length, { filename: 'notes.txt', message: 'hi' });
    expect((await tusPatch(second.location, 0, text.subarray(0, 4500))).status).toBe(204);
    await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: { allowedKinds: 'image' } });
    const refused = await tusPatch(second.location, 4500, text.subarray(4500));
    expectError(refused, refused.body, 415, 'kind_not_allowed');

    expect(await ownerSnapshot(owner, slug)).toEqual({ submissionCount: 0, totalBytes: 0, ids: [] });
    const ids = [idOf(created.location), idOf(second.location)];
    expect((await storedFiles(dir)).filter((f) => ids.some((id) => f.includes(id)))).toEqual([]);
  });

  it("/v1/uploads/tus checks the plan's limit again when the last byte arrives (a plan lowered meanwhile): 413, the upload removed", async () => {
    const tenant = await t.newTenant({ plan: 'pro' });
    const file = Buffer.concat([await png(30, 30), randomBytes(26 * MiB)]);
    const created = await tusCreate(uploadsTus(), file.length, { filename: 'big.png' }, bearer(tenant));
    expect(created.status).toBe(201);
    expect((await tusPatch(created.location, 0, file.subarray(0, MiB), bearer(tenant))).status).toBe(204);
    await t.app.get(DataSource).query(`UPDATE accounts SET plan = 'free' WHERE id = $1`, [tenant.account.id]);
    // The key cache learns of the plan change by NOTIFY: wait until requests are judged by the free plan (5 per second).
    const freeRate = async () => (await tenant.client.GET('/v1/account')).response.headers.get('ratelimit-limit') === '5';
    expect(await eventually(freeRate, 30_000, 400)).toBe(true);
    const last = await tusPatch(created.location, MiB, file.subarray(MiB), bearer(tenant));
    expectError(last, last.body, 413, 'file_too_large');
    expect((await tus(created.location, 'HEAD', bearer(tenant))).status).toBe(404);
    const id = idOf(created.location);
    expect((await storedFiles(dir)).filter((f) => f.includes(id))).toEqual([]);
  });

  it('a job whose input.fileId is larger than the plan allows is 413 file_too_large, nothing charged', async () => {
    const free = await t.newTenant({ plan: 'free', credits: 50 });
    // An upload row over the free limit (one made through the hole above, or before a plan change).
    const upload = await t.app
      .get(UploadsService)
      .createFromStored(free.account, newId('upl'), 'big.png', { storageKey: newId('obj'), size: 30772329, mime: 'image/png', kind: 'image', ext: 'png' });
    const job = await free.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { fileId: upload.id }, options: { width: 10 } } } as any);
    expectError(job.response, job.error, 413, 'file_too_large');
    expect((await free.client.GET('/v1/account')).data!.account.creditBalance).toBe(50);
    expect((await free.client.GET('/v1/jobs')).data!.jobs).toEqual([]);
  });

  it('Upload-Concat is 400 tus_extension_unsupported on both endpoints, logged below error level', async () => {
    const slug = await createDrop(owner);
    const answers = [
      await tus(dropTus(slug), 'POST', { 'Upload-Length': '10', 'Upload-Concat': 'partial', 'Upload-Metadata': 'filename YS50eHQ=' }),
      await tus(dropTus(slug), 'POST', { 'Upload-Concat': `final;${dropTus(slug)}/a ${dropTus(slug)}/b`, 'Upload-Metadata': 'filename YS50eHQ=' }),
      await tus(uploadsTus(), 'POST', { 'Upload-Length': '10', 'Upload-Concat': 'partial', ...bearer(owner) }),
    ];
    for (const answer of answers) {
      expectError(answer, answer.body, 400, 'tus_extension_unsupported');
      expect(answer.body.error.message).toContain('Upload-Concat');
    }
    const reqIds = answers.map((a) => a.headers.get('x-request-id'));
    const lines = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: string; reqId?: string; msg: string })
      .filter((l) => reqIds.includes(l.reqId ?? ''));
    expect(lines.map((l) => l.level)).toEqual(['info', 'info', 'info']);
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 0 });
  });

  it("a single-kind drop's file takes its sniffed type's extension by tus as by multipart (list, download, archive)", async () => {
    const slug = await createDrop(owner, { allowedKinds: 'image' });
    const image = await png(50, 50);
    const created = await tusCreate(dropTus(slug), image.length, { filename: 'invoice.html' });
    const last = await tusPatch(created.location, 0, image);
    const byTus = last.headers.get('dropline-submission-id')!;
    expect(byTus).toMatch(/^sub_/);
    const sent = await submit(t, slug, form({}, { data: image, name: 'invoice.html', type: 'text/html' }));
    expect(sent.status).toBe(201);
    const byForm = sent.body.submission.id as string;

    for (const id of [byTus, byForm]) {
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
      expect(data!.submission).toMatchObject({ fileName: 'invoice.png', fileMime: 'image/png' });
      const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
      const file = await fetch(link!.url);
      expect(file.headers.get('content-disposition')).toContain('invoice.png');
      expect(file.headers.get('content-disposition')).not.toContain('.html');
      await file.arrayBuffer();
    }
    const zip = Buffer.from(await (await fetch(`${t.baseUrl}/v1/drops/${slug}/submissions/archive`, { headers: bearer(owner) })).arrayBuffer());
    expect(zip.includes('invoice.png')).toBe(true);
    expect(zip.includes('invoice (2).png')).toBe(true);
    expect(zip.includes('.html')).toBe(false);
  });

  it('HEAD echoes only the metadata the client sent, never the owner the server recorded, on both endpoints; the upload still finishes', async () => {
    const parsed = (header: string | null) =>
      Object.fromEntries((header ?? '').split(',').map((pair) => [pair.split(' ')[0], Buffer.from(pair.split(' ')[1] ?? '', 'base64').toString('utf8')]));
    const image = await png(32, 32);
    const slug = await createDrop(owner);
    const sent = { filename: 'photo.png', senderName: 'Ada' };
    const viaDrop = await tusCreate(dropTus(slug), image.length, sent);
    expect(viaDrop.status).toBe(201);
    const viaKey = await tusCreate(uploadsTus(), image.length, { filename: 'upload.png' }, bearer(owner));
    expect(viaKey.status).toBe(201);

    const dropHead = await tus(viaDrop.location, 'HEAD');
    expect(dropHead.status).toBe(200);
    expect(parsed(dropHead.headers.get('upload-metadata'))).toEqual(sent);
    const keyHead = await tus(viaKey.location, 'HEAD', bearer(owner));
    expect(keyHead.status).toBe(200);
    expect(parsed(keyHead.headers.get('upload-metadata'))).toEqual({ filename: 'upload.png' });
    for (const head of [dropHead, keyHead]) expect(head.headers.get('upload-metadata')).not.toMatch(/owner|drp_|acc_/);

    // The owner stays recorded: the uploads finish where they began, and still nowhere else.
    expect((await tus(viaDrop.location.replace(slug, await createDrop(owner)), 'HEAD')).status).toBe(404);
    const finished = await tusPatch(viaDrop.location, 0, image);
    expect(finished.status).toBe(204);
    expect(finished.headers.get('dropline-submission-id')).toMatch(/^sub_/);
    expect((await tusPatch(viaKey.location, 0, image, bearer(owner))).status).toBe(204);
  });
});
