import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { type Browser, chromium } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/test-app';

/**
 * /docs in real headless Chromium: the Swagger UI renders the contract's operations. The contract
 * holds text that String.prototype.replace reads as a replacement pattern ("$`" after a regex's `$`),
 * which used to break swagger-ui-init.js and leave a blank page.
 */
describe('/docs (browser)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the contract holds the text that used to break the page (else this test proves nothing)', () => {
    expect(readFileSync(join(__dirname, '..', '..', '..', 'openapi.yaml'), 'utf8')).toContain('$`');
  });

  it('shows the operation list, with no script error', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    try {
      await page.goto(`${t.baseUrl}/docs`);
      const createJob = page.locator('.opblock-summary-operation-id', { hasText: /^createJob$/ });
      await createJob.first().waitFor({ state: 'visible' });
      expect(await page.locator('.opblock-summary-operation-id').count()).toBeGreaterThan(40);
      // The document rendered is this deployment's (its server), fetched by URL.
      expect(await page.locator('.servers select').inputValue()).toBe(t.baseUrl);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('swagger-ui-init.js carries no text of the contract, so none can break it', async () => {
    const script = await (await fetch(`${t.baseUrl}/docs/swagger-ui-init.js`)).text();
    // Compiled, not run: a SyntaxError is what blanked the page.
    expect(() => new Script(script)).not.toThrow();
    expect(script).not.toContain('Dropline API');
    expect(script).toContain('/docs/openapi.json');
  });
});
