import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { join } from 'node:path';
import { expectError } from '../../support/expect-error';
import { eventually, MiB, ownerSnapshot, removeDir, tempStorageDir } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { type TusAnswer, tus, tusCreate, tusJsUpload, tusPatch } from '../../support/tus';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The request limits and chunked tus uploads: the creation of an upload counts against the
 * address's (or the key's) request limit; the HEAD, PATCH and DELETE that continue an upload the
 * endpoint admitted do not — a client sending a file in 1 MiB chunks makes dozens a second — but
 * still hold one of the address's upload slots. Any other id (made up, another drop's or
 * account's, finished) is counted as before, so naming ids is no way around the limit.
 * The app runs with the default limits: 10 public requests a second and 4 public uploads in progress per address.
 */
describe('tus uploads and the request limits', () => {
  let dir: string;
  let t: TestApp;
  let owner: Tenant;

  beforeAll(async () => {
    dir = await tempStorageDir('tus-limit');
    // The production defaults (the test app raises both for other suites).
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '10', PUBLIC_UPLOADS_PER_IP: '4' });
    owner = await t.newTenant();
  });
  afterAll(async () => {
    await t?.close();
    await removeDir(dir);
  });

  async function createDrop(): Promise<string> {
    const slug = uniqueSlug('tus-lim');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { name: 'Chunked', slug, maxFileSizeMB: 100 } });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const collection = (slug: string) => `${t.baseUrl}/v1/public/drops/${slug}/tus`;
  const idOf = (location: string) => location.split('/').pop()!;

  /** Creates an upload, waiting out a request budget an earlier step spent (creations are counted). */
  async function createUpload(url: string, length: number, metadata: Record<string, string>, headers: Record<string, string> = {}) {
    const created = await eventually(async () => {
      const answer = await tusCreate(url, length, metadata, headers);
      return answer.status === 429 ? undefined : answer;
    }, 10_000);
    expect(created?.status).toBe(201);
    return created!;
  }

  /**
   * Spends the request budget of `spend` (requests it may make, each counted: answered 429 once
   * the budget is gone), runs `probe` at once, then checks with one more counted request that the
   * budget was still spent: only then did `probe` run while the limit refused everything counted
   * (a window that ended in between would have let that check through). Retries until so.
   * Returns the probe's answers of every round: the first ones of a spent round come last.
   */
  async function whileSpent<T>(spend: () => Promise<TusAnswer>, probe: () => Promise<T>): Promise<{ last: T; all: T[] }> {
    const all: T[] = [];
    for (let round = 0; round < 20; round++) {
      let refused = false;
      for (let i = 0; i < 60 && !refused; i++) refused = (await spend()).status === 429;
      expect(refused).toBe(true);
      const answers = await probe();
      all.push(answers);
      if ((await spend()).status === 429) return { last: answers, all };
    }
    throw new Error('the request budget never stayed spent through a probe');
  }

  it('tus-js-client with its default retries sends 64 MiB in 1 MiB chunks to a public drop without a 429', async () => {
    const slug = await createDrop();
    const file = randomBytes(64 * MiB);
    const started = Date.now();
    const run = await tusJsUpload(collection(slug), file, { chunkSize: MiB, metadata: { filename: 'big.bin', senderName: 'Ada' } });
    const seconds = (Date.now() - started) / 1000;
    expect(run.error).toBeUndefined();
    expect(run.statuses.filter((s) => s === 429)).toEqual([]);
    // One creation and 64 PATCHes, none of them retried.
    expect(run.statuses).toEqual([201, ...Array<number>(64).fill(204)]);
    process.stdout.write(`tus-js-client: 64 MiB in 1 MiB chunks in ${seconds.toFixed(1)} s (${(64 / seconds).toFixed(1)} PATCH/s)\n`);

    expect(run.submissionId).toMatch(/^sub_/);
    expect(await ownerSnapshot(owner, slug)).toMatchObject({ submissionCount: 1, totalBytes: file.length, ids: [run.submissionId] });
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: run.submissionId! } } });
    expect(sha256(Buffer.from(await (await fetch(link!.url)).arrayBuffer()))).toBe(sha256(file));
  });

  it('while the address is over its limit, its admitted upload continues; made-up, foreign and finished ids and new creations are 429', async () => {
    const slug = await createDrop();
    const other = await createDrop();
    const file = randomBytes(2 * MiB);
    const admitted = await createUpload(collection(slug), file.length, { filename: 'chunks.bin' });
    const cancelled = await createUpload(collection(slug), 100, { filename: 'cancelled.bin' });
    const foreign = await createUpload(collection(other), 100, { filename: 'foreign.bin' });
    const finished = await createUpload(collection(slug), 10, { filename: 'done.txt' });
    const completed = await eventually(async () => {
      const answer = await tusPatch(finished.location, 0, Buffer.from('0123456789'));
      return answer.status === 429 ? undefined : answer;
    }, 10_000);
    expect(completed?.headers.get('dropline-submission-id')).toMatch(/^sub_/);
    const madeUp = `${collection(slug)}/obj_${randomBytes(8).toString('hex')}`;
    const spend = () => tus(madeUp, 'HEAD');

    // The admitted upload goes on chunk by chunk while everything counted is refused.
    const chunk = 256 * 1024;
    let offset = 0;
    const rounds = await whileSpent(spend, async () => {
      const patched = await tusPatch(admitted.location, offset, file.subarray(offset, offset + chunk));
      if (patched.status === 204) offset += chunk;
      return [patched.status, (await tus(admitted.location, 'HEAD')).status];
    });
    expect(rounds.all.flat().filter((s) => s === 429)).toEqual([]);
    expect(rounds.last).toEqual([204, 200]);
    const terminated = await whileSpent(spend, async () => (await tus(cancelled.location, 'DELETE')).status);
    expect(terminated.all[0]).toBe(204);

    // Counted, hence refused: a made-up id, another drop's upload named through this drop's URL,
    // a finished upload, a terminated one, and a new creation.
    const refused = await whileSpent(spend, async () => ({
      madeUp: await tusPatch(madeUp, 0, Buffer.from('x')),
      foreign: await tus(`${collection(slug)}/${idOf(foreign.location)}`, 'HEAD'),
      foreignPatch: await tusPatch(`${collection(slug)}/${idOf(foreign.location)}`, 0, Buffer.from('x')),
      finished: await tusPatch(finished.location, 0, Buffer.from('0123456789')),
      terminated: await tus(cancelled.location, 'HEAD'),
      deleteForeign: await tus(`${collection(slug)}/${idOf(foreign.location)}`, 'DELETE'),
      creation: await tusCreate(collection(slug), 10, { filename: 'one-more.txt' }),
    }));
    for (const [name, answer] of Object.entries(refused.last)) {
      expect([name, answer.status]).toEqual([name, 429]);
    }
    expectError(refused.last.madeUp, refused.last.madeUp.body, 429, 'rate_limited');
    expect(refused.last.madeUp.headers.get('retry-after')).toBeTruthy();
    expectError(refused.last.creation, refused.last.creation.body, 429, 'rate_limited');

    // The admitted upload finishes once the rest is sent; its bytes are the file's.
    const rest = await eventually(async () => {
      const answer = await tusPatch(admitted.location, offset, file.subarray(offset));
      return answer.status === 204 ? answer : undefined;
    }, 10_000);
    const submissionId = rest!.headers.get('dropline-submission-id');
    expect(submissionId).toMatch(/^sub_/);
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submissionId! } } });
    expect(sha256(Buffer.from(await (await fetch(link!.url)).arrayBuffer()))).toBe(sha256(file));
    // Finished: no longer admitted, so counted again (and gone).
    const after = await whileSpent(spend, async () => (await tus(admitted.location, 'HEAD')).status);
    expect(after.last).toBe(429);
  });

  it("an admitted upload still holds one of the address's upload slots: a fifth PATCH in progress is 429 too_many_uploads", async () => {
    const slug = await createDrop();
    const uploads: { location: string }[] = [];
    for (let i = 0; i < 5; i++) {
      uploads.push(await createUpload(collection(slug), 4 * MiB, { filename: `held-${i}.bin` }));
    }
    const held: ClientRequest[] = uploads.slice(0, 4).map(({ location }) => {
      const req = request(location, {
        method: 'PATCH',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(4 * MiB) },
      });
      req.on('error', () => undefined);
      req.write(randomBytes(64 * 1024));
      return req;
    });
    try {
      // Each held PATCH took its slot before streaming into its file: wait for the bytes, not for time.
      const sizes = () => Promise.all(uploads.slice(0, 4).map(({ location }) => stat(join(dir, '.tus', idOf(location))).then((s) => s.size)));
      expect(await eventually(async () => (await sizes()).every((size) => size > 0), 20_000)).toBe(true);
      const fifth = await tusPatch(uploads[4].location, 0, randomBytes(1024));
      expectError(fifth, fifth.body, 429, 'too_many_uploads');
      const head = await tus(uploads[4].location, 'HEAD');
      expect(head.status).toBe(429);
    } finally {
      for (const req of held) req.destroy();
    }
    const admitted = await eventually(async () => {
      const answer = await tusPatch(uploads[4].location, 0, randomBytes(1024));
      return answer.status === 204 ? answer : undefined;
    }, 20_000);
    expect(admitted?.status).toBe(204);
  });

  it('/v1/uploads/tus: a free key (5 requests/s) sends 20 MiB in 1 MiB chunks with tus-js-client; unadmitted ids count against the key', async () => {
    const free = await t.newTenant({ plan: 'free' });
    const auth = { Authorization: `Bearer ${free.token}` };
    const file = randomBytes(20 * MiB);
    const run = await tusJsUpload(`${t.baseUrl}/v1/uploads/tus`, file, { chunkSize: MiB, metadata: { filename: 'input.bin' }, headers: auth });
    expect(run.error).toBeUndefined();
    expect(run.statuses).toEqual([201, ...Array<number>(20).fill(204)]);

    const created = await createUpload(`${t.baseUrl}/v1/uploads/tus`, MiB, { filename: 'paced.bin' }, auth);
    const stranger = await t.newTenant({ plan: 'free' });
    const theirs = await createUpload(`${t.baseUrl}/v1/uploads/tus`, MiB, { filename: 'theirs.bin' }, { Authorization: `Bearer ${stranger.token}` });
    const madeUp = `${t.baseUrl}/v1/uploads/tus/upl_${randomBytes(8).toString('hex')}`;
    const spend = () => tus(madeUp, 'HEAD', auth);

    const continued = await whileSpent(spend, async () => ({
      patch: await tusPatch(created.location, 0, randomBytes(1024), auth),
      head: await tus(created.location, 'HEAD', auth),
    }));
    for (const round of continued.all) expect([round.patch.status, round.head.status]).not.toContain(429);
    expect(continued.last.head.status).toBe(200);
    // Not counted, so no RateLimit-* headers claim it was.
    expect(continued.last.head.headers.get('ratelimit-remaining')).toBeNull();

    const refused = await whileSpent(spend, async () => ({
      madeUp: await tusPatch(madeUp, 0, Buffer.from('x'), auth),
      stranger: await tusPatch(theirs.location, 0, Buffer.from('x'), auth),
      creation: await tusCreate(`${t.baseUrl}/v1/uploads/tus`, 10, { filename: 'more.bin' }, auth),
    }));
    for (const [name, answer] of Object.entries(refused.last)) expect([name, answer.status]).toEqual([name, 429]);
    expectError(refused.last.stranger, refused.last.stranger.body, 429, 'rate_limited');
    expect(refused.last.stranger.headers.get('ratelimit-limit')).toBe('5');
  });
});
