import { PassThrough } from 'node:stream';
import { form, png, removeDir, submit, tempStorageDir } from '../../support/intake';
import { startTestApp, type TestApp, uniqueSlug } from '../../support/test-app';

/** Secrets stay secret and survive restarts: signed-URL signatures, the signing key, /metrics. */
describe('secrets and operations', () => {
  let dir: string;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    dir = await tempStorageDir('secrets');
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await removeDir(dir);
  });

  /** A signed download URL of a file sent to a fresh drop of `t`. */
  async function downloadUrl(t: TestApp): Promise<string> {
    const owner = await t.newTenant();
    const slug = uniqueSlug();
    await owner.client.POST('/v1/drops', { body: { name: 'secrets', slug } });
    const sent = await submit(t, slug, form({}, { data: await png(), name: 'p.png', type: 'image/png' }));
    const id = sent.body.submission.id as string;
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id } } });
    return link.data!.url;
  }

  it('the sig of a signed URL never reaches the request log', async () => {
    const log = new PassThrough();
    let text = '';
    log.on('data', (chunk) => (text += chunk.toString()));
    const t = await startTestApp({ STORAGE_DIR: dir, LOG_LEVEL: 'info' }, '127.0.0.1', { logStream: log });
    apps.push(t);
    const url = await downloadUrl(t);
    const sig = new URL(url).searchParams.get('sig')!;
    expect((await fetch(url)).status).toBe(200);
    expect(text).toContain('/v1/files/');
    expect(text).toContain('sig=[redacted]');
    expect(text).not.toContain(sig);
  });

  it('without SIGNING_SECRET, links handed out before a restart still work after it', async () => {
    const first = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: '' });
    apps.push(first);
    const url = new URL(await downloadUrl(first));
    await first.close();
    const second = await startTestApp({ STORAGE_DIR: dir, SIGNING_SECRET: '' });
    apps.push(second);
    const res = await fetch(`${second.baseUrl}${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
  });

  it('with METRICS_TOKEN, /metrics needs it', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const t = await startTestApp({ METRICS_TOKEN: token });
    apps.push(t);
    const anonymous = await fetch(`${t.baseUrl}/metrics`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('unauthorized');
    expect((await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const scraped = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('process_cpu');
  });
});
