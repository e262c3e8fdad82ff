import { chromium } from 'playwright-core';
import { startTestApp, uniqueSlug } from '../support/test-app';

it('dev screenshots', async () => {
  const t = await startTestApp({ PUBLIC_RATE_LIMIT: '500' });
  const owner = await t.newTenant();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const mk = async (body: any, look: any = {}) => {
      const slug = uniqueSlug('dev');
      await owner.client.POST('/v1/drops', { body: { slug, ...body } });
      if (Object.keys(look).length) await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug } }, body: look });
      return slug;
    };
    for (const scheme of ['light', 'dark'] as const) {
      const ctx = await browser.newContext({ viewport: { width: 760, height: 900 }, colorScheme: scheme });
      const page = await ctx.newPage();
      const a = await mk({ name: 'Podcast guest recordings', description: 'Upload your raw track (WAV or MP3).', allowedKinds: 'audio', maxFileSizeMB: 5, requireSenderEmail: true, requireMessage: true }, { emoji: '★', accentColor: '#facc15' });
      await page.goto(`${t.baseUrl}/d/${a}`);
      await page.screenshot({ path: `/tmp/dp-${scheme}-empty.png`, fullPage: true });
      await page.setInputFiles('#file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
      await page.click('#submit');
      await page.screenshot({ path: `/tmp/dp-${scheme}-errors.png`, fullPage: true });
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 500000 });
      await page.fill('#senderEmail', 'a@example.com'); await page.fill('#message', 'hi');
      await page.setInputFiles('#file', { name: 'take-1.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(3 * 1024 * 1024) });
      await page.click('#submit');
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/tmp/dp-${scheme}-progress.png`, fullPage: true });
      await page.click('#cancel');
      const p = await mk({ name: 'Closed drop' });
      await owner.client.PATCH('/v1/drops/{slug}', { params: { path: { slug: p } }, body: { isActive: false } });
      await page.goto(`${t.baseUrl}/d/${p}`);
      await page.screenshot({ path: `/tmp/dp-${scheme}-paused.png`, fullPage: true });
      await page.goto(`${t.baseUrl}/d/nope-nope`);
      await page.screenshot({ path: `/tmp/dp-${scheme}-404.png`, fullPage: true });
      await ctx.close();
    }
    const ctx = await browser.newContext({ viewport: { width: 375, height: 700 } });
    const page = await ctx.newPage();
    const m = await mk({ name: 'A drop with a really long name that wraps over several lines on a phone', description: 'Line one\nLine two <b>not bold</b>', maxFileSizeMB: 5 });
    await page.goto(`${t.baseUrl}/d/${m}`);
    await page.setInputFiles('#file', { name: 'a-very-long-file-name-that-should-be-truncated-nicely-in-the-ui.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await page.screenshot({ path: `/tmp/dp-mobile.png`, fullPage: true });
  } finally {
    await browser.close();
    await t.close();
  }
});
