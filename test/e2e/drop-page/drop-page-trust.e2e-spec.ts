import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { png } from '../../support/intake';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * The upload page of a drop people can trust (issue 22), in real headless Chromium: it shows each
 * rule (extensions, count and size limits, late grace) before a file is picked, asks for the
 * password of a protected drop (refusing a wrong one), sends with it, and remembers it for the tab.
 */
describe('drop page: password and rules (browser)', () => {
  let t: TestApp;
  let owner: Tenant;
  let browser: Browser;
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  let pageProblems: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-drop-page-trust-'));
    t = await startTestApp({ STORAGE_DIR: dir, PUBLIC_RATE_LIMIT: '500' });
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
    context = await browser.newContext({ viewport: { width: 760, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    pageProblems = [];
    page.on('pageerror', (err) => pageProblems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/status of (4|5)\d\d/.test(msg.text())) pageProblems.push(`console: ${msg.text()}`);
    });
  });
  afterEach(async () => {
    await context?.close();
    expect(pageProblems).toEqual([]);
  });

  async function createDrop(body: Record<string, unknown>): Promise<string> {
    const slug = uniqueSlug('ptrust');
    const { response, error } = await owner.client.POST('/v1/drops', { body: { slug, ...body } as any });
    if (response.status !== 201) throw new Error(`create drop: ${response.status} ${JSON.stringify(error)}`);
    return slug;
  }
  const submissionsOf = async (slug: string) => (await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug } } })).data!.submissions;

  it('asks for the password, refuses a wrong one, sends with the right one and remembers it for the tab', async () => {
    const slug = await createDrop({ name: 'Signed contracts', description: 'Only for the board', password: 'board members only', allowedExtensions: ['png'] });
    await page.goto(`${t.baseUrl}/d/${slug}`);
    expect(await page.locator('h1').innerText()).toBe('Signed contracts');
    expect(await page.locator('#password-form').isVisible()).toBe(true);
    expect(await page.locator('#form-area').isHidden()).toBe(true);
    expect(await page.content()).not.toContain('Only for the board');

    await page.fill('#drop-password', 'not the password');
    await page.click('#unlock');
    await page.locator('#drop-password-error', { hasText: /not right/ }).waitFor();
    expect(await page.locator('#form-area').isHidden()).toBe(true);

    await page.fill('#drop-password', 'board members only');
    await page.click('#unlock');
    await page.locator('#form-area').waitFor({ state: 'visible' });
    expect(await page.locator('#drop-description').innerText()).toBe('Only for the board');
    expect(await page.locator('#rules li').allInnerTexts()).toEqual(['Any type of file', 'Only .png files', 'Up to 2 GB', 'Password protected']);

    await page.setInputFiles('#file', { name: 'contract.png', mimeType: 'image/png', buffer: await png() });
    await page.click('#submit');
    await page.locator('#success').waitFor();
    expect((await submissionsOf(slug)).map((s) => s.fileName)).toEqual(['contract.png']);

    // A reload in the same tab opens the drop with the kept password; a new tab asks again.
    await page.reload();
    await page.locator('#form-area').waitFor({ state: 'visible' });
    expect(await page.locator('#password-form').isHidden()).toBe(true);
    const other = await context.newPage();
    await other.goto(`${t.baseUrl}/d/${slug}`);
    expect(await other.locator('#password-form').isVisible()).toBe(true);
  });

  it('shows each rule before a file is picked: extensions, count and size limits, deadline and grace; a full drop is closed', async () => {
    const expiresAt = new Date(Date.UTC(2031, 0, 15, 12, 0));
    const slug = await createDrop({
      name: 'Applications',
      allowedExtensions: ['pdf', 'docx'],
      maxSubmissions: 1,
      maxTotalMB: 50,
      maxFileSizeMB: 10,
      expiresAt: expiresAt.toISOString(),
      acceptLateUntil: new Date(expiresAt.getTime() + 86400_000).toISOString(),
    });
    await page.goto(`${t.baseUrl}/d/${slug}`);
    const rules = await page.locator('#rules li').allInnerTexts();
    expect(rules.slice(0, 4)).toEqual(['Any type of file', 'Only .pdf, .docx files', 'Up to 10 MB', 'At most 1 file in all']);
    expect(rules[4]).toBe('Up to 50 MB in all');
    expect(rules[5]).toMatch(/^Open until\s+15 Jan 2031/);
    expect(rules[6]).toMatch(/^Late files accepted until\s+16 Jan 2031/);
    expect(await page.locator('#password-form').isHidden()).toBe(true);

    await page.setInputFiles('#file', {
      name: 'letter.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1'),
    });
    await page.click('#submit');
    await page.locator('#success').waitFor();

    await page.goto(`${t.baseUrl}/d/${slug}`);
    expect(await page.locator('#closed-notice').innerText()).toMatch(/This drop is full/);
    expect(await page.locator('#submit').isDisabled()).toBe(true);
  });
});
