import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { expectMatchesReference } from '../../support/screenshot-diff';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';
import { contractFetch } from '../../support/contract-check';

/** Committed reference screenshots; each run writes its own to tmp/screenshots (git-ignored). */
const REFERENCE = join(__dirname, '__screenshots__');
const SCREENSHOTS = join(__dirname, '..', '..', '..', 'tmp', 'screenshots');
const MB = 1024 * 1024;

/**
 * The sender's upload page `/d/{slug}` (docs/decisions.md §6) in real headless Chromium against the real
 * app: rules checked before sending, a real multipart upload with progress, the intake's error
 * codes as clear messages, closed drops, the HTML 404, and screenshots of the page.
 */
describe('drop page /d/{slug} (browser)', () => {
  let t: TestApp;
  let owner: Tenant;
  let browser: Browser;
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  /** Script errors and CSP violations seen by the current test's page: there must be none. */
  let pageProblems: string[];
  /** Uploads the current test's page sent. */
  let uploads: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-drop-page-'));
    // Its own rate-limit bucket (keyed by the limit), so other suites' public traffic cannot throttle this one.
    // With a worker: a drop's auto-conversion runs while the page test waits for it.
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '500', WORKER_IN_PROCESS: 'true' });
    owner = await t.newTenant();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 760, height: 900 }, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    pageProblems = [];
    uploads = [];
    page.on('pageerror', (err) => pageProblems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/status of (4|5)\d\d/.test(msg.text())) pageProblems.push(`console: ${msg.text()}`);
    });
    page.on('request', (req) => {
      // The page sends with tus: one creation (POST …/tus) per file.
      if (req.method() === 'POST' && /\/tus$/.test(req.url())) uploads.push(req.url());
    });
  });
  afterEach(async () => {
    await context?.close();
    expect(pageProblems).toEqual([]);
  });

  // ---- helpers ----------------------------------------------------------------------------

  async function createDrop(body: Record<string, unknown>, look: Record<string, unknown> = {}): Promise<string> {
    const slug = uniqueSlug('page');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { slug, ...body } as any });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    if (Object.keys(look).length > 0) await patchDrop(slug, look);
    return slug;
  }

  async function patchDrop(slug: string, body: Record<string, unknown>): Promise<void> {
    const { response, error } = await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: body as any });
    if (response.status !== 200) throw new Error(`patch drop: ${response.status} ${JSON.stringify(error)}`);
  }

  async function submissionsOf(slug: string) {
    const { data } = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } });
    return data!.submissions;
  }

  async function open(slug: string) {
    const response = await page.goto(`${t.baseUrl}/d/${slug}`);
    return response!;
  }

  const fieldsetDisabled = () => page.locator('#fields').evaluate((el) => (el as HTMLFieldSetElement).disabled);
  const text = (selector: string) => page.locator(selector).innerText();
  const waitForText = (selector: string, pattern: RegExp) => page.locator(selector, { hasText: pattern }).waitFor();

  async function png(width = 320, height = 200): Promise<Buffer> {
    // A diagonal gradient: a real image whose bytes a re-encode would change.
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        raw[i] = (x * 255) / width;
        raw[i + 1] = (y * 255) / height;
        raw[i + 2] = 160;
      }
    }
    return sharp(raw, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
  }

  // ---- the happy path -----------------------------------------------------------------------

  it('renders the drop and sends a file that the owner can list and download byte-identical', async () => {
    const slug = await createDrop(
      { name: 'Launch photos', description: 'Your best shots from the launch.\nOne per upload, please.', allowedKinds: 'image', requireSenderEmail: true, maxFileSizeMB: 10 },
      { emoji: '🚀', accentColor: '#0F766E' },
    );
    const response = await open(slug);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(headers['x-content-type-options']).toBe('nosniff');

    expect(await text('h1')).toBe('Launch photos');
    expect(await text('#drop-description')).toBe('Your best shots from the launch.\nOne per upload, please.');
    expect(await text('.badge')).toBe('🚀');
    expect(await page.locator('#rules li').allInnerTexts()).toEqual(['Images only', 'Up to 10 MB', 'Email required']);
    expect(await page.title()).toBe('Launch photos · Send a file');
    // The accent colour on the button and the progress bar.
    expect(await page.locator('#submit').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 118, 110)');
    expect(await page.locator('#progress-bar').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 118, 110)');
    // Required marker and attributes for the email only.
    expect(await page.locator('label[for=senderEmail] .req').count()).toBe(1);
    expect(await page.locator('#senderEmail').getAttribute('aria-required')).toBe('true');
    expect(await page.locator('#message').getAttribute('aria-required')).toBeNull();

    const file = await png();
    await page.fill('#senderName', 'Ada Lovelace');
    await page.fill('#senderEmail', 'ada@example.com');
    await page.fill('#message', 'From the front row');
    await page.setInputFiles('#file', { name: 'launch.png', mimeType: 'image/png', buffer: file });
    expect(await text('#file-name')).toBe('launch.png');
    const kb = file.length / 1024;
    expect(await text('#file-size')).toBe(`${kb >= 100 ? Math.round(kb) : kb.toFixed(1).replace(/\.0$/, '')} KB`);
    await page.click('#submit');
    await page.locator('#success').waitFor();
    expect(await text('#success-title')).toBe('Sent!');
    expect(await text('#success-text')).toContain('"launch.png"');
    expect(await text('#success-text')).toContain('was delivered to Launch photos');
    expect(await page.locator('#form-area').isHidden()).toBe(true);
    expect(uploads).toHaveLength(1);

    const list = await submissionsOf(slug);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      fileName: 'launch.png',
      fileSize: file.length,
      fileKind: 'image',
      fileMime: 'image/png',
      senderName: 'Ada Lovelace',
      senderEmail: 'ada@example.com',
      message: 'From the front row',
      status: 'ready',
    });
    const { data: download } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: list[0].id } } });
    const res = await contractFetch(download!.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);

    // "Send another file" brings the form back, keeping who the sender is.
    await page.click('#again');
    expect(await page.locator('#form-area').isVisible()).toBe(true);
    expect(await page.inputValue('#senderEmail')).toBe('ada@example.com');
    expect(await page.locator('#dz-file').isHidden()).toBe(true);
  });

  it('a PNG sent through the page to an autoConvertTo webp drop comes out as a valid WebP for the owner', async () => {
    const slug = await createDrop({ name: 'WebP please', allowedKinds: 'image', autoConvertTo: 'webp' });
    await open(slug);
    await page.setInputFiles('#file', { name: 'poster.png', mimeType: 'image/png', buffer: await png(400, 300) });
    await page.click('#submit');
    await page.locator('#success').waitFor();

    let submission = (await submissionsOf(slug))[0];
    for (let i = 0; i < 100 && submission.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      submission = (await submissionsOf(slug))[0];
    }
    expect(submission).toMatchObject({ status: 'ready', fileName: 'poster.png', processedFileName: 'poster.webp' });
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', {
      params: { path: { slug, id: submission.id }, query: { processed: true } },
    });
    expect(link!.file).toBe('processed');
    const webp = Buffer.from(await (await contractFetch(link!.url)).arrayBuffer());
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 400, height: 300 });
  });

  it('shows real upload progress (upload.onprogress) on a throttled connection', async () => {
    const slug = await createDrop({ name: 'Big files', maxFileSizeMB: 10 });
    await open(slug);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1.5 * MB });
    await page.evaluate(() => {
      const seen: string[] = ((window as any).__progress = []);
      new MutationObserver(() => seen.push(document.getElementById('progress-pct')!.textContent)).observe(document.getElementById('progress-pct')!, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const data = Buffer.alloc(3 * MB, 7);
    await page.setInputFiles('#file', { name: 'archive.bin', mimeType: 'application/octet-stream', buffer: data });
    await page.click('#submit');
    await page.locator('#progress').waitFor();
    expect(await page.locator('#cancel').isVisible()).toBe(true);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    await page.waitForFunction(() => {
      const now = Number(document.getElementById('progress-track')!.getAttribute('aria-valuenow'));
      return now > 0 && now < 100;
    });
    await page.locator('#success').waitFor({ timeout: 30_000 });
    const seen: string[] = await page.evaluate(() => (window as any).__progress);
    const values = seen.map((s) => Number(s.replace('%', '')));
    expect(values.some((v) => v > 0 && v < 100)).toBe(true);
    expect(values[values.length - 1]).toBe(100);
    expect(values).toEqual([...values].sort((a, b) => a - b)); // never goes backwards
    expect(await submissionsOf(slug)).toHaveLength(1);
  });

  it('sends several files in one go: each becomes a submission with the same sender fields, with its own state', async () => {
    const slug = await createDrop({ name: 'Many' });
    await open(slug);
    const files = [
      { name: 'one.png', mimeType: 'image/png', buffer: await png(30, 20) },
      { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('second file') },
      { name: 'three.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(70_000, 3) },
    ];
    await page.fill('#senderName', 'Grace');
    await page.setInputFiles('#file', files);
    expect(await text('#file-name')).toBe('3 files');
    expect(await page.locator('#file-list li').count()).toBe(3);
    await page.click('#submit');
    await page.locator('#success').waitFor();
    expect(await text('#success-text')).toMatch(/^3 files \(.+\) were delivered to Many\./);
    expect(await page.locator('#file-list .fl-state.ok').count()).toBe(3);
    expect(uploads).toHaveLength(3);
    const list = await submissionsOf(slug);
    expect(list.map((s) => s.fileName).sort()).toEqual(['one.png', 'three.bin', 'two.txt']);
    expect(list.every((s) => s.senderName === 'Grace')).toBe(true);
    for (const f of files) expect(list.find((s) => s.fileName === f.name)!.fileSize).toBe(f.buffer.length);
  });

  it('shows a per-file error and goes on with the send only as far as the refused file', async () => {
    const slug = await createDrop({ name: 'Images only', allowedKinds: 'image' });
    await open(slug);
    await page.setInputFiles('#file', [
      { name: 'ok.png', mimeType: 'image/png', buffer: await png(20, 20) },
      // Named like an image, but the bytes are text: only the server's sniffing can tell.
      { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.alloc(5000, 'not an image ') },
    ]);
    await page.click('#submit');
    await page.locator('#status.error').waitFor();
    expect(await text('#status')).toMatch(/^"fake\.png": This type of file isn’t accepted here\./);
    expect(await page.locator('#file-state-0').innerText()).toBe('Sent');
    expect(await page.locator('#file-state-1').innerText()).toMatch(/isn’t accepted/);
    expect((await submissionsOf(slug)).map((s) => s.fileName)).toEqual(['ok.png']);
    pageProblems = pageProblems.filter((p) => !/Failed to load resource/.test(p));
  });

  it('finishes an upload after the network drops mid-upload and comes back; the owner gets the same bytes', async () => {
    const slug = await createDrop({ name: 'Flaky network', maxFileSizeMB: 50 });
    await open(slug);
    const data = Buffer.alloc(12 * MB);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    let cut = false;
    let refused = 0;
    // The network is cut after the first 8 MiB chunk: every PATCH fails until it is restored.
    await page.route('**/v1/public/drops/*/tus/*', async (route) => {
      const req = route.request();
      if (req.method() === 'PATCH' && Number(req.headers()['upload-offset']) > 0 && (cut || refused === 0)) {
        cut = true;
        refused++;
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    await page.setInputFiles('#file', { name: 'flaky.bin', mimeType: 'application/octet-stream', buffer: data });
    await page.click('#submit');
    await waitForText('#status', /^The connection was interrupted before the upload finished/);
    expect(await page.locator('#success').isHidden()).toBe(true);
    cut = false; // the network is back
    await page.locator('#success').waitFor({ timeout: 60_000 });
    expect(refused).toBeGreaterThan(0);
    expect(uploads).toHaveLength(1);
    const [submission] = await submissionsOf(slug);
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id } } });
    expect(Buffer.from(await (await fetch(link!.url)).arrayBuffer()).equals(data)).toBe(true);
    pageProblems = pageProblems.filter((p) => !/Failed to load resource/.test(p));
  });

  it('resumes after a page reload instead of starting over', async () => {
    const slug = await createDrop({ name: 'Reload', maxFileSizeMB: 50 });
    const data = Buffer.alloc(12 * MB, 9);
    const path = join(dir, 'reload.bin');
    await mkdir(dir, { recursive: true });
    await writeFile(path, data); // a file on disk keeps its lastModified, part of tus-js-client's fingerprint
    const patches: string[] = [];
    const heads: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PATCH') patches.push(req.headers()['upload-offset']);
      if (req.method() === 'HEAD') heads.push(req.url());
    });
    page.on('dialog', (dialog) => void dialog.accept()); // "leave the page while uploading?"
    await open(slug);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * MB });
    await page.setInputFiles('#file', path);
    await page.click('#submit');
    // Reload once the server holds part of the first chunk.
    await page.waitForFunction(() => Number(document.getElementById('progress-track')!.getAttribute('aria-valuenow')) >= 20);
    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }).catch(() => undefined);
    await page.setInputFiles('#file', path);
    await page.click('#submit');
    await page.locator('#success').waitFor({ timeout: 60_000 });
    expect(uploads).toHaveLength(1); // one tus creation: the second send resumed it
    expect(heads.length).toBeGreaterThan(0);
    expect(Number(patches[patches.length - 1])).toBeGreaterThan(0);
    expect(patches.slice(1).some((offset) => Number(offset) > 0)).toBe(true);
    const [submission] = await submissionsOf(slug);
    expect(submission.fileSize).toBe(data.length);
    const { data: link } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id } } });
    expect(Buffer.from(await (await fetch(link!.url)).arrayBuffer()).equals(data)).toBe(true);
  });

  it('takes a file dropped on the zone, and is usable from the keyboard', async () => {
    const slug = await createDrop({ name: 'Drag here', allowedKinds: 'image' });
    await open(slug);
    const zone = page.locator('#dropzone');
    const file = await png(50, 50);
    const dataTransfer = await page.evaluateHandle(
      (bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'dragged.png', { type: 'image/png' }));
        return dt;
      },
      [...file],
    );
    await zone.dispatchEvent('dragenter', { dataTransfer });
    expect(await zone.getAttribute('class')).toContain('dragging');
    await zone.dispatchEvent('drop', { dataTransfer });
    expect(await zone.getAttribute('class')).not.toContain('dragging');
    expect(await text('#file-name')).toBe('dragged.png');

    // Tab reaches the file input inside the zone (which shows the focus ring), then the fields, then the button.
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('file');
    expect(await zone.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('senderName');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('message');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('submit');
    await page.keyboard.press('Enter');
    await page.locator('#success').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('success-title');
    const [sent] = await submissionsOf(slug);
    expect(sent).toMatchObject({ fileName: 'dragged.png', fileSize: file.length, fileKind: 'image' });
  });

  // ---- rules checked before sending ---------------------------------------------------------

  it('refuses a file of the wrong kind without sending it', async () => {
    const slug = await createDrop({ name: 'Images only', allowedKinds: 'image' });
    await open(slug);
    await page.setInputFiles('#file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes\n') });
    expect(await text('#file-error')).toBe('This drop accepts only images, and "notes.txt" looks like a document. Choose another file.');
    expect(await page.locator('#file').getAttribute('aria-invalid')).toBe('true');
    await page.click('#submit');
    await waitForText('#status', /accepts only images/);
    expect(uploads).toEqual([]);
    expect(await submissionsOf(slug)).toEqual([]);
  });

  it('refuses a file over maxFileSizeMB without sending it', async () => {
    const slug = await createDrop({ name: 'Small files', allowedKinds: 'image', maxFileSizeMB: 1 });
    await open(slug);
    await page.setInputFiles('#file', { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * MB, 1) });
    await page.click('#submit');
    await waitForText('#status', /limit of 1 MB/);
    expect(await text('#status')).toBe('"huge.png" is 2 MB, over this drop’s limit of 1 MB. Choose a smaller file.');
    expect(uploads).toEqual([]);
    expect(await submissionsOf(slug)).toEqual([]);
  });

  it('asks for the required email and message, and for a file, without sending', async () => {
    const slug = await createDrop({ name: 'Strict', requireSenderEmail: true, requireMessage: true });
    await open(slug);
    await page.click('#submit');
    await waitForText('#status', /Choose a file/);
    expect(await text('#status')).toBe('Choose a file to send. Enter your email address: this drop requires it. Write a message: this drop requires one.');

    await page.setInputFiles('#file', { name: 'a.png', mimeType: 'image/png', buffer: await png(40, 40) });
    await page.click('#submit');
    await waitForText('#status', /^Enter your email address/);
    expect(await text('#senderEmail-error')).toBe('Enter your email address: this drop requires it.');
    expect(await page.locator('#senderEmail').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('senderEmail');
    expect(await text('#message-error')).toBe('Write a message: this drop requires one.');

    await page.fill('#senderEmail', 'not-an-email');
    await page.fill('#message', 'hello');
    await page.click('#submit');
    await waitForText('#status', /valid email address/);
    expect(await page.locator('#message').getAttribute('aria-invalid')).toBeNull();
    expect(uploads).toEqual([]);
    expect(await submissionsOf(slug)).toEqual([]);

    await page.fill('#senderEmail', 'grace@example.com');
    await page.click('#submit');
    await page.locator('#success').waitFor();
    expect(await submissionsOf(slug)).toMatchObject([{ senderEmail: 'grace@example.com', message: 'hello' }]);
  });

  // ---- closed drops -----------------------------------------------------------------------

  it('says up front that a paused drop is paused, with the form disabled', async () => {
    const slug = await createDrop({ name: 'On hold' });
    await patchDrop(slug, { isActive: false });
    expect((await open(slug)).status()).toBe(200);
    expect(await page.locator('#closed-notice').textContent()).toBe(
      'This drop is paused. It isn’t accepting files right now. Please try again later or contact the person who shared this link.',
    );
    expect(await fieldsetDisabled()).toBe(true);
    expect(await page.locator('#file').isDisabled()).toBe(true);
    expect(await page.locator('#senderEmail').isDisabled()).toBe(true);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
  });

  it('says up front that an expired drop has expired, and closes an open page at expiry', async () => {
    const expiresAt = new Date(Date.now() + 3000);
    const slug = await createDrop({ name: 'Last call', expiresAt: expiresAt.toISOString() });
    await open(slug);
    expect(await page.locator('#closed-notice').isHidden()).toBe(true);
    expect(await page.locator('#submit').isEnabled()).toBe(true);
    expect(await fieldsetDisabled()).toBe(false);
    expect(await text('#rules')).toContain('Open until');

    // The open page closes itself when the drop expires.
    await waitForText('#closed-notice', /This drop has expired/);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    expect(await fieldsetDisabled()).toBe(true);
    expect(await page.locator('#file').isDisabled()).toBe(true);

    // And a fresh load says so from the server.
    expect(Date.now()).toBeGreaterThan(expiresAt.getTime());
    await open(slug);
    expect(await page.locator('#closed-notice').textContent()).toMatch(/^This drop has expired\. It stopped accepting files on .+\.$/);
    expect(await fieldsetDisabled()).toBe(true);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    expect(await text('#rules')).not.toContain('Open until');
  });

  it('reports a drop paused while the page was open (server 403 drop_paused) and disables the form', async () => {
    const slug = await createDrop({ name: 'Paused meanwhile' });
    await open(slug);
    await patchDrop(slug, { isActive: false });
    await page.setInputFiles('#file', { name: 'a.png', mimeType: 'image/png', buffer: await png(40, 40) });
    await page.click('#submit');
    await waitForText('#status', /paused/);
    expect(await text('#status')).toBe('This drop was paused by its owner and isn’t accepting files right now, so the file was not sent. Please try again later.');
    expect(await text('#closed-notice')).toMatch(/^This drop is paused\./);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    expect(uploads).toHaveLength(1);
    expect(await submissionsOf(slug)).toEqual([]);
  });

  // ---- the server's refusals ----------------------------------------------------------------

  it('shows the server’s message when the bytes are not what the name says (415 kind_not_allowed)', async () => {
    const slug = await createDrop({ name: 'Real images', allowedKinds: 'image' });
    await open(slug);
    await page.setInputFiles('#file', { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is text, not a PNG\n'.repeat(20)) });
    expect(await text('#file-error')).toBe(''); // passes the client-side check
    await page.click('#submit');
    await waitForText('#status', /accepted here/);
    expect(await text('#status')).toBe('This type of file isn’t accepted here. This drop accepts only image files; this file is a document (application/octet-stream).');
    expect(await page.locator('#submit').isEnabled()).toBe(true); // another file may be chosen
    expect(uploads).toHaveLength(1);
    expect(await submissionsOf(slug)).toEqual([]);
  });

  it('shows the server’s 413 when the limit was lowered while the page was open', async () => {
    const slug = await createDrop({ name: 'Shrinking', maxFileSizeMB: 10 });
    await open(slug);
    await patchDrop(slug, { maxFileSizeMB: 1 });
    await page.setInputFiles('#file', { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3 * MB, 3) });
    await page.click('#submit');
    await page.locator('#status.error').waitFor();
    expect(await text('#status')).toBe("This file is too large for this drop. The file exceeds this drop's limit of 1 MB. Choose a smaller file.");
    expect(await submissionsOf(slug)).toEqual([]);
    pageProblems = pageProblems.filter((p) => !/Failed to load resource/.test(p));
  });

  it('maps every intake error code to a clear message', async () => {
    const slug = await createDrop({ name: 'Mapped' });
    let answer: { status: number; body?: unknown; headers?: Record<string, string>; abort?: boolean } = { status: 500 };
    await page.route('**/v1/public/drops/*/tus', (route) =>
      answer.abort
        ? route.abort('connectionreset')
        : route.fulfill({ status: answer.status, contentType: 'application/json', headers: answer.headers, body: JSON.stringify(answer.body) }),
    );
    const err = (code: string, message: string, details?: unknown) => ({ error: { code, message, ...(details ? { details } : {}) } });
    // The last flag: the drop closes (true), the refusal is final (false), or the page keeps retrying ('retries').
    const cases: [string, typeof answer, RegExp, boolean | 'retries'][] = [
      ['404', { status: 404, body: err('not_found', 'Drop not found.') }, /^This drop no longer exists, so the file was not sent\.$/, true],
      ['403', { status: 403, body: err('drop_paused', 'paused') }, /^This drop was paused by its owner/, true],
      ['410', { status: 410, body: err('drop_expired', 'expired') }, /^This drop has expired and no longer accepts files/, true],
      [
        '400',
        { status: 400, body: err('validation_failed', 'body/senderEmail: must match format "email"', [{ path: 'body/senderEmail', message: 'must match format "email"' }]) },
        /^Some details are missing or invalid\. The server said: body\/senderEmail/,
        false,
      ],
      [
        '413',
        { status: 413, body: err('file_too_large', "The file exceeds this drop's limit of 3 MB.") },
        /^This file is too large for this drop\. The file exceeds this drop's limit of 3 MB\. Choose a smaller file\.$/,
        false,
      ],
      [
        '415',
        { status: 415, body: err('kind_not_allowed', 'This drop accepts only audio files; this file is an image (image/png).') },
        /^This type of file isn’t accepted here\. This drop accepts only audio files/,
        false,
      ],
      [
        '429',
        { status: 429, body: err('rate_limited', 'Rate limit of 10 requests per second exceeded; retry in 7 s.'), headers: { 'retry-after': '7' } },
        /^Too many uploads from your network in a short time\. Please wait 7 seconds and try again\.$/,
        'retries',
      ],
      ['500', { status: 500, body: err('internal_error', 'Internal error. It has been logged.') }, /^Something went wrong on our side/, 'retries'],
      ['network', { status: 0, abort: true }, /^The connection was interrupted before the upload finished/, 'retries'],
    ];
    const file = await png(40, 40);
    for (const [name, reply, expected, closes] of cases) {
      answer = reply;
      await open(slug);
      await page.fill('#senderEmail', 'x@example.com');
      await page.setInputFiles('#file', { name: 'a.png', mimeType: 'image/png', buffer: file });
      await page.click('#submit');
      await page.locator('#status.error').waitFor();
      expect([name, await text('#status')]).toEqual([name, expect.stringMatching(expected)]);
      if (closes === 'retries') {
        // Retried with backoff, still cancellable; cancelling ends it.
        expect([name, await page.locator('#cancel').isVisible()]).toEqual([name, true]);
        await page.click('#cancel');
        await waitForText('#status', /^Upload cancelled/);
        continue;
      }
      expect([name, await page.locator('#submit').isDisabled()]).toEqual([name, closes]);
      expect([name, await page.locator('#closed-notice').isVisible()]).toEqual([name, closes]);
      if (name === '400') expect(await text('#senderEmail-error')).toBe('Check your email address.');
    }
    // Chromium logs "Failed to load resource" for the refused answers; not a problem of the page.
    pageProblems = pageProblems.filter((p) => !/Failed to load resource/.test(p));
  });

  // ---- no such drop -------------------------------------------------------------------------

  it('answers an unknown slug, and one that cannot exist, with an HTML 404 page', async () => {
    for (const slug of ['no-such-drop-here', 'Not_A_Slug']) {
      const res = await contractFetch(`${t.baseUrl}/d/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'none'/);
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('This drop doesn’t exist');
    }
    const response = await open('no-such-drop-here');
    expect(response.status()).toBe(404);
    expect(await text('h1')).toBe('This drop doesn’t exist');
    pageProblems = pageProblems.filter((p) => !/Failed to load resource/.test(p));
  });

  // ---- what it looks like -------------------------------------------------------------------

  it('screenshots: a file chosen, and the success state', async () => {
    const slug = await createDrop(
      {
        name: 'Brand assets for the spring campaign',
        description: 'Drop your logo files, product photos and mood boards here. We will get back to you within two days.',
        allowedKinds: 'image',
        maxFileSizeMB: 25,
        requireSenderEmail: true,
      },
      // ✿ rather than a colour emoji: this machine's Chromium has no emoji font, and the screenshot is committed.
      { emoji: '✿', accentColor: '#db2777' },
    );
    await open(slug);
    await page.fill('#senderName', 'Marie Curie');
    await page.fill('#senderEmail', 'marie@example.com');
    await page.fill('#message', 'Here is the new hero shot, 3:2 as agreed.');
    await page.setInputFiles('#file', { name: 'hero-shot-final.png', mimeType: 'image/png', buffer: await png(640, 400) });
    await page.locator('#message').blur();
    await mkdir(SCREENSHOTS, { recursive: true });

    const chosen = await page.screenshot({ fullPage: true });
    await writeFile(join(SCREENSHOTS, 'drop-page.png'), chosen);
    await expectNonTrivial(chosen);
    await expectSameLayout(chosen, 'drop-page.png');

    await page.click('#submit');
    await page.locator('#success').waitFor();
    const sent = await page.screenshot({ fullPage: true });
    await writeFile(join(SCREENSHOTS, 'drop-page-success.png'), sent);
    await expectNonTrivial(sent);
    await expectSameLayout(sent, 'drop-page-success.png');
  });

  /** Pixel diff against the committed reference (re-baseline: UPDATE_SCREENSHOTS=1, see screenshot-diff.ts). */
  async function expectSameLayout(image: Buffer, reference: string): Promise<void> {
    expectMatchesReference(image, join(REFERENCE, reference));
  }

  async function expectNonTrivial(image: Buffer): Promise<void> {
    const { width, height } = await sharp(image).metadata();
    expect(width).toBeGreaterThan(300);
    expect(height).toBeGreaterThan(300);
    const { channels } = await sharp(image).stats();
    expect(channels.some((c) => c.max - c.min > 100)).toBe(true); // not a single colour
    expect(image.length).toBeLessThan(400 * 1024); // small enough to commit
  }
});
