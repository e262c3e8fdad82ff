/** File names as they travel in signed URLs and Content-Disposition headers. */

/** The contract's limit on the `name` query parameter of a signed URL (code points). */
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * A name that can be signed, put in a URL and sent back in a header: well-formed Unicode, no
 * control characters or path separators, not empty, at most {@link MAX_FILE_NAME_LENGTH} code
 * points (the extension is kept when cutting).
 */
export function safeFileName(name: string): string {
  let clean = String(name)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .trim();
  if (!clean || clean === '.' || clean === '..') clean = 'download';
  const chars = Array.from(clean);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(clean.slice(dot)) : [];
  if (ext.length > 0 && ext.length <= 16) {
    return (
      Array.from(clean.slice(0, dot))
        .slice(0, MAX_FILE_NAME_LENGTH - ext.length)
        .join('') + ext.join('')
    );
  }
  return chars.slice(0, MAX_FILE_NAME_LENGTH).join('');
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266 / 8187).
 * The fallback replaces anything outside printable ASCII, and `"`, `\` and `%`, with `_`.
 */
export function contentDisposition(name: string): string {
  const fileName = safeFileName(name);
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** encodeURIComponent, plus the characters it leaves alone that are not RFC 8187 attr-chars. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
