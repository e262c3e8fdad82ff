import { DataSource } from 'typeorm';
import type { DropEvent } from '../../../generated/types';
import { expectError } from '../../support/expect-error';
import { form, png, removeDir, send, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { tusCreate, tusPatch } from '../../support/tus';

const OWNER_AGENT = 'owner-agent/1.0';
const SENDER_AGENT = 'sender-agent/2.0';

/** A drop's audit log: every change and download, its actor, newest first, cursor pages, owner-only. */
describe('drop events (GET /v1/drops/{slug}/events)', () => {
  let t: TestApp;
  let dir: string;
  let owner: Tenant;
  let db: DataSource;
  const asOwner = { headers: { 'User-Agent': OWNER_AGENT } };

  beforeAll(async () => {
    dir = await tempStorageDir('drop-events');
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '100000' });
    owner = await t.newTenant();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  const sendFile = (slug: string, data: Buffer | string, name: string) =>
    send(t, slug, { body: form({ senderName: 'Sender' }, { data, name }), headers: { 'User-Agent': SENDER_AGENT } });
  const listAll = async (slug: string, tenant = owner): Promise<DropEvent[]> => {
    const { response, data } = await tenant.client.GET('/v1/drops/{slug}/events', { params: { path: { slug } } });
    expect(response.status).toBe(200);
    expect(data!.nextCursor).toBeNull();
    return data!.events;
  };

  /** A drop with one event of each type: created, updated, a submission created, refused, downloaded, deleted. */
  const dropWithHistory = async () => {
    const slug = uniqueSlug();
    expect((await owner.client.POST('/v1/drops', { ...asOwner, body: { name: 'Audited', slug, allowedKinds: 'image' } })).response.status).toBe(201);
    expect(
      (await owner.client.PATCH('/v1/drops/{slug}', { ...asOwner, params: { path: { slug } }, body: { name: 'Audited inbox', password: 'correct horse' } })).response.status,
    ).toBe(200);
    const password = { 'Drop-Password': 'correct horse', 'User-Agent': SENDER_AGENT };
    const sent = await send(t, slug, { body: form({ senderName: 'Sender' }, { data: await png(), name: 'photo.png' }), headers: password });
    expect(sent.status).toBe(201);
    const refused = await send(t, slug, { body: form({ senderName: 'Sender' }, { data: 'plain text\n', name: 'notes.txt' }), headers: password });
    expect(refused.status).toBe(415);
    const submissionId = sent.body.submission.id as string;
    const path = { params: { path: { slug, id: submissionId } } };
    expect((await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { ...asOwner, ...path })).response.status).toBe(200);
    expect((await owner.client.DELETE('/v1/drops/{slug}/submissions/{id}', { ...asOwner, ...path })).response.status).toBe(204);
    return { slug, submissionId };
  };

  it('records each change once, newest first, with its actor and detail', async () => {
    const { slug, submissionId } = await dropWithHistory();
    const events = await listAll(slug);
    expect(events.map((e) => e.type)).toEqual(['submission.deleted', 'submission.downloaded', 'submission.refused', 'submission.created', 'drop.updated', 'drop.created']);
    const times = events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    const key = { kind: 'key', keyId: owner.keyId, ip: '127.0.0.1', userAgent: OWNER_AGENT };
    const sender = { kind: 'public', ip: '127.0.0.1', userAgent: SENDER_AGENT };
    expect(byType['drop.created']).toMatchObject({ actor: key, detail: {} });
    expect(byType['drop.created'].submissionId).toBeUndefined();
    // The properties changed, never their values (the password is one).
    expect(byType['drop.updated']).toMatchObject({ actor: key, detail: { fields: ['name', 'password'] } });
    expect(JSON.stringify(byType['drop.updated'])).not.toContain('correct horse');
    expect(byType['submission.created']).toMatchObject({ actor: sender, submissionId, detail: { fileName: 'photo.png', fileSize: expect.any(Number) } });
    expect(byType['submission.refused']).toMatchObject({ actor: sender, detail: { code: 'kind_not_allowed' } });
    expect(byType['submission.refused'].submissionId).toBeUndefined();
    expect(byType['submission.downloaded']).toMatchObject({ actor: key, submissionId, detail: { file: 'original' } });
    expect(byType['submission.deleted']).toMatchObject({ actor: key, submissionId, detail: {} });
    expect(byType['submission.created'].actor.keyId).toBeUndefined();
  });

  it('records the refusals of a closed drop and of a wrong password by their codes', async () => {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Guarded', slug, password: 'open sesame' } });
    expect((await send(t, slug, { body: form({}, { data: 'x\n', name: 'a.txt' }), headers: { 'Drop-Password': 'wrong' } })).status).toBe(403);
    await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: { isActive: false } });
    expect((await send(t, slug, { body: form({}, { data: 'x\n', name: 'a.txt' }), headers: { 'Drop-Password': 'open sesame' } })).status).toBe(403);
    const refused = (await listAll(slug)).filter((e) => e.type === 'submission.refused');
    expect(refused.map((e) => e.detail.code)).toEqual(['drop_paused', 'wrong_password']);
    // A slug with no drop records nothing (and answers as before).
    expect((await sendFile(`no-such-${uniqueSlug()}`, 'x\n', 'a.txt')).status).toBe(404);
  });

  it('a resumable (tus) upload is recorded as the sender of the PATCH that completes it', async () => {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Resumable', slug } });
    const file = await png();
    const created = await tusCreate(`${t.baseUrl}/v1/public/drops/${slug}/tus`, file.length, { filename: 'photo.png', senderName: 'Sender' });
    expect(created.status).toBe(201);
    const done = await tusPatch(created.location, 0, file, { 'User-Agent': SENDER_AGENT });
    expect(done.status).toBe(204);
    const submissionId = done.headers.get('dropline-submission-id');
    const [event] = (await listAll(slug)).filter((e) => e.type === 'submission.created');
    expect(event).toMatchObject({ submissionId, actor: { kind: 'public', ip: '127.0.0.1', userAgent: SENDER_AGENT }, detail: { fileName: 'photo.png', fileSize: file.length } });
  });

  it('pages with nextCursor and filters by type, since and until', async () => {
    const { slug } = await dropWithHistory();
    const all = await listAll(slug);
    const seen: DropEvent[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await owner.client.GET('/v1/drops/{slug}/events', { params: { path: { slug }, query: { limit: 4, cursor } } });
      expect(data!.events.length).toBeLessThanOrEqual(4);
      seen.push(...data!.events);
      cursor = data!.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);

    const typed = await owner.client.GET('/v1/drops/{slug}/events', { params: { path: { slug }, query: { type: 'submission.created' } } });
    expect(typed.data!.events.map((e) => e.type)).toEqual(['submission.created']);
    const refused = all.find((e) => e.type === 'submission.refused')!;
    const window = await owner.client.GET('/v1/drops/{slug}/events', { params: { path: { slug }, query: { since: refused.at, until: refused.at } } });
    expect(window.data!.events.map((e) => e.id)).toEqual([refused.id]);
    const after = await owner.client.GET('/v1/drops/{slug}/events', { params: { path: { slug }, query: { since: refused.at } } });
    expect(after.data!.events.map((e) => e.type)).toEqual(['submission.deleted', 'submission.downloaded', 'submission.refused']);
  });

  it("another account's drop is 404; a key without drops:read is 403", async () => {
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'Private', slug } });
    const stranger = await t.newTenant();
    const foreign = await stranger.client.GET('/v1/drops/{slug}/events', { params: { path: { slug } } });
    expectError(foreign.response, foreign.error, 404, 'not_found');
    const writer = await t.newKey(owner.account.id, { scopes: ['drops:write'] });
    const unscoped = await writer.client.GET('/v1/drops/{slug}/events', { params: { path: { slug } } });
    expectError(unscoped.response, unscoped.error, 403, 'insufficient_scope');
    const bad = await owner.client.GET('/v1/drops/{slug}/events', { params: { path: { slug }, query: { cursor: 'bm90LWEtY3Vyc29y' } } });
    expectError(bad.response, bad.error, 400, 'validation_failed');
  });

  it('the events go with their drop', async () => {
    const { slug } = await dropWithHistory();
    const [{ id }] = await db.query('SELECT id FROM drops WHERE slug = $1', [slug]);
    expect(Number((await db.query('SELECT count(*) FROM drop_events WHERE drop_id = $1', [id]))[0].count)).toBe(6);
    expect((await owner.client.DELETE('/v1/drops/{slug}', { params: { path: { slug } } })).response.status).toBe(204);
    expect(Number((await db.query('SELECT count(*) FROM drop_events WHERE drop_id = $1', [id]))[0].count)).toBe(0);
  });
});
