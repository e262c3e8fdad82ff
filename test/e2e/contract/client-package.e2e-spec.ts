import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makePng, makeVideo, serveFiles } from '../../support/media-fixtures';
import { form, png, submit } from '../../support/intake';
import { startTestApp, uniqueSlug, type Tenant, type TestApp } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/**
 * Issue 12 item 5: `npm pack` of client/ gives a tarball that installs into an empty project and
 * works against the real server; the README's examples run as written.
 */
describe('the @dropline/client package', () => {
  let t: TestApp;
  let tenant: Tenant;
  let project: string;
  let examples: string[];

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'dropline-client-pkg-'));
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', STORAGE_DIR: join(project, 'files'), ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    tenant = await t.newTenant({ plan: 'pro', credits: 50 });
    await run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: join(ROOT, 'client') });
    const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(project, tarball)], { cwd: project });
    const readme = await readFile(join(ROOT, 'client', 'README.md'), 'utf8');
    examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  });
  afterAll(async () => {
    await t?.close();
    await rm(project, { recursive: true, force: true });
  });

  async function runExample(index: number, env: Record<string, string> = {}): Promise<string> {
    const file = join(project, `example-${index}.mjs`);
    await writeFile(file, examples[index]);
    const { stdout } = await run(process.execPath, [file], {
      cwd: project,
      env: { PATH: process.env.PATH!, DROPLINE_URL: t.baseUrl, DROPLINE_API_KEY: tenant.token, ...env },
    });
    return stdout;
  }

  it('the README example "resize an image" runs: upload, job, wait, a 320 px wide result', async () => {
    const image = join(project, 'photo.png');
    await writeFile(image, await makePng(640, 480));
    const out = (await runExample(0, { IMAGE_PATH: image })).trim().split(' ');
    expect(out.slice(0, 2)).toEqual(['completed', '320']);
    expect((await fetch(out[2])).status).toBe(200);
  });

  it('the README example "the account and its ledger" runs and prints the debit', async () => {
    const out = await runExample(1);
    expect(out.split('\n')[0]).toBe('pro 49');
    expect(out).toMatch(/job_debit -1/);
  });

  it('verifyWebhook of the installed package accepts a real delivery and refuses a forged one', async () => {
    const receiver = await startReceiver();
    try {
      const slug = uniqueSlug();
      await tenant.client.POST('/v1/drops', { body: { name: 'Packaged', slug, webhookUrl: receiver.url } });
      expect((await submit(t, slug, form({}, { data: await png(), name: 'a.png', type: 'image/png' }))).status).toBe(201);
      const [hook] = await receiver.waitFor(1);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const pkg = require(join(project, 'node_modules', '@dropline', 'client'));
      expect(pkg.verifyWebhook(tenant.account.webhookSecret, hook.body, hook.headers)).toMatchObject({ type: 'submission.created', data: { drop: { slug } } });
      expect(() => pkg.verifyWebhook(tenant.account.webhookSecret, hook.body.replace('Packaged', 'Forged'), hook.headers)).toThrow();
      expect(examples[2]).toContain('verifyWebhook(process.env.DROPLINE_WEBHOOK_SECRET, body, req.headers)');
    } finally {
      await receiver.close();
    }
  });

  it('the README example "submit a job and wait" runs: createJobAndWait gives the completed WebP', async () => {
    const image = join(project, 'photo-wait.png');
    await writeFile(image, await makePng(64, 48));
    const out = (await runExample(3, { IMAGE_PATH: image })).trim().split(' ');
    expect(out.slice(0, 2)).toEqual(['completed', 'webp']);
    expect((await fetch(out[2])).status).toBe(200);
  });

  it('the README examples "a video recipe" and "a template" run: one pipeline job each, every output named', async () => {
    await makeVideo(join(project, 'clip.mp4'), 2, { size: '160x90' });
    const files = await serveFiles({ 'clip.mp4': await readFile(join(project, 'clip.mp4')), 'photo.png': await makePng(640, 480) });
    try {
      const [cost, width, height, poster, tiles, vtt] = (await runExample(4, { VIDEO_URL: files.url('clip.mp4') })).trim().split(' ');
      expect([cost, width, height, poster, tiles]).toEqual(['8', '160', '90', 'image/jpeg', '2']);
      expect((await fetch(vtt)).headers.get('content-type')).toBe('text/vtt');
      expect((await runExample(5, { IMAGE_URL: files.url('photo.png') })).trim()).toBe('completed webp 320');
    } finally {
      await files.close();
    }
  });
});
