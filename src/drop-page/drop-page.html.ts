/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>` and `&` become \u escapes, so no
 * value can close the element (`</script>`) or open a comment (`<!--`); JSON.parse reads them back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** An SVG favicon showing the emoji, as a data: URL (allowed by the page's CSP `img-src data:`). */
export function emojiFavicon(emoji: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${escapeHtml(emoji)}</text></svg>`;
  return 'data:image/svg+xml,' + encodeURIComponent(svg);
}
