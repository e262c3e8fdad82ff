import type { Drop } from '../drops/drop.entity';
import { NEW_DROP_SETTINGS } from '../../test/support/drops';
import { escapeHtml, jsonForScript } from './drop-page.html';
import { contrastOfHex, DEFAULT_ACCENT, themeFor } from './drop-page.theme';
import { contentSecurityPolicy, dropPageData, formatLimit, renderDropPage, renderMessagePage } from './drop-page.view';

const NOW = new Date('2030-01-01T12:00:00.000Z');

function drop(overrides: Partial<Drop> = {}): Drop {
  return { id: 'drp_1', accountId: 'acc_1', slug: 'launch-assets', name: 'Launch assets', ...NEW_DROP_SETTINGS, createdAt: NOW, ...overrides };
}

const render = (d: Drop, nonce = 'bm9uY2U=') => renderDropPage(dropPageData(d, NOW), nonce);
const embedded = (html: string) => html.match(/<script type="application\/json" id="drop-data">([^<]*)<\/script>/)![1];

describe('drop page view', () => {
  it('escapes everything the drop owner typed', () => {
    const html = render(
      drop({
        name: '</title><script>alert(1)</script>',
        description: '<img src=x onerror=alert(2)> & "quotes"',
        emoji: '"><svg onload=x>',
      }),
    );
    expect(html).not.toMatch(/<script>alert|<img src=x|<svg onload/);
    expect(html).toContain('<h1 id="drop-title">&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quotes&quot;');
    expect(html).toContain('<div class="badge" aria-hidden="true">&quot;&gt;&lt;svg onload=x&gt;</div>');
    expect(html.match(/<script\b/g)).toHaveLength(3); // the JSON data, tus-js-client and the page's own script, nothing injected
  });

  it('embeds the public drop as JSON that cannot close its script element', () => {
    const d = drop({ name: '</script><script>alert(1)</script><!--', description: 'a & b > c \u2028' });
    const json = embedded(render(d));
    expect(json).not.toMatch(/[<>&\u2028]/);
    const data = JSON.parse(json);
    expect(data.drop).toEqual({
      slug: 'launch-assets',
      name: d.name,
      description: d.description,
      emoji: null,
      accentColor: null,
      allowedKinds: 'any',
      maxFileSizeMB: 25,
      requireSenderEmail: false,
      requireMessage: false,
      acceptingSubmissions: true,
      requiresPassword: false,
      expiresAt: null,
      acceptLateUntil: null,
      maxSubmissions: null,
      maxTotalMB: null,
      allowedExtensions: null,
    });
    expect(data).toMatchObject({ closed: null, expiresAt: null, now: NOW.toISOString(), uploadUrl: '/v1/public/drops/launch-assets/submissions' });
    expect(Object.keys(data.drop)).not.toContain('webhookUrl'); // nothing but the public view
  });

  it('uses the response nonce for its style and script, and the CSP allows only those', () => {
    const html = render(drop(), 'abc123==');
    expect(html).toContain('<style nonce="abc123==">');
    // The script and stylesheet are our own files, loaded from this origin under the same nonce.
    expect(html).toMatch(/<script src="\/d\/assets\/drop-page\.js\?v=[\w-]{8}" nonce="abc123=="><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/d\/assets\/drop-page\.css\?v=[\w-]{8}" nonce="abc123==">/);
    expect(html).not.toMatch(/<script nonce="abc123==">/); // no inline script left
    expect(html).not.toMatch(/\sstyle="/); // inline style attributes would be blocked
    expect(html).not.toMatch(/\son[a-z]+="/); // and so would inline handlers
    expect(contentSecurityPolicy('abc123==', true)).toBe(
      "default-src 'none'; script-src 'nonce-abc123=='; style-src 'nonce-abc123=='; img-src 'self' data:; connect-src 'self'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'",
    );
    expect(contentSecurityPolicy('n', false)).toMatch(/script-src 'none'/);
  });

  it('shows the rules and marks the required fields', () => {
    const html = render(drop({ allowedKinds: 'image', maxFileSizeMB: 10, requireSenderEmail: true, requireMessage: true }));
    expect(html).toContain('<li>Images only</li><li>Up to 10 MB</li><li>Email required</li><li>Message required</li>');
    expect(html).toMatch(/id="senderEmail"[^>]* required aria-required="true"/);
    expect(html).toMatch(/id="message"[^>]* required aria-required="true"/);
    expect(html).toContain('accept="image/*,.heic,.heif,.avif,.jxl"');
    expect(render(drop())).not.toContain('aria-required');
    expect(render(drop())).not.toContain('accept=');
  });

  it('says a paused drop is paused and disables the form', () => {
    const html = render(drop({ isActive: false, expiresAt: new Date('2020-01-01T00:00:00Z') }));
    expect(dropPageData(drop({ isActive: false, expiresAt: new Date('2020-01-01T00:00:00Z') }), NOW).closed).toBe('paused'); // 403 before 410
    expect(html).toContain('<strong>This drop is paused.</strong>');
    expect(html).toContain('<fieldset id="fields" disabled>');
    expect(html).toMatch(/id="submit" disabled>/);
  });

  it('says an expired drop has expired, with the time; an open one shows until when', () => {
    const past = drop({ expiresAt: new Date('2029-12-31T08:30:00.000Z') });
    expect(dropPageData(past, NOW)).toMatchObject({ closed: 'expired', drop: { acceptingSubmissions: false } });
    const html = renderDropPage(dropPageData(past, NOW), 'n');
    expect(html).toContain(
      '<strong>This drop has expired.</strong> It stopped accepting files on <time class="local-time" datetime="2029-12-31T08:30:00.000Z">2029-12-31 08:30 UTC</time>.',
    );
    expect(html).toContain('<fieldset id="fields" disabled>');

    const open = renderDropPage(dropPageData(drop({ expiresAt: new Date('2030-02-01T00:00:00.000Z') }), NOW), 'n');
    expect(open).toContain('<li>Open until <time class="local-time" datetime="2030-02-01T00:00:00.000Z">');
    expect(open).toContain('<fieldset id="fields">');
    expect(open).toContain('<div id="closed-notice" class="notice closed" role="alert" hidden></div>');
  });

  it('formats large limits in GB', () => {
    expect(formatLimit(25)).toBe('25 MB');
    expect(formatLimit(2048)).toBe('2 GB');
    expect(formatLimit(1500)).toBe('1500 MB');
  });

  it('renders the 404 and error pages without any script', () => {
    const page = renderMessagePage('not_found', 'n');
    expect(page).toContain('<h1>This drop doesn’t exist</h1>');
    expect(page).not.toContain('<script');
    expect(renderMessagePage('error', 'n')).toContain('<h1>Something went wrong</h1>');
  });
});

describe('drop page theme', () => {
  it('accepts only #RRGGBB; anything else is the default colour', () => {
    expect(themeFor('#0F766E').accent).toBe('#0f766e');
    for (const bad of [null, undefined, '', 'red', '#fff', '#0f766e;}body{display:none}', 'url(x)']) {
      expect(themeFor(bad).accent).toBe(DEFAULT_ACCENT);
    }
  });

  it('keeps text readable on any accent', () => {
    expect(themeFor('#facc15').onAccent).toBe('#111827'); // yellow: dark text on the button
    expect(themeFor('#1d4ed8').onAccent).toBe('#ffffff');
    for (const accent of ['#facc15', '#ffffff', '#00ff00', '#000000', '#db2777']) {
      const theme = themeFor(accent);
      expect(contrastOfHex(theme.ink, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrastOfHex(theme.inkDark, '#1e293b')).toBeGreaterThanOrEqual(4.5);
      expect(contrastOfHex(theme.onAccent, theme.accent)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('escapes HTML and script-embedded JSON', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(jsonForScript({ a: '</script>' })).toBe('{"a":"\\u003c/script\\u003e"}');
  });
});
