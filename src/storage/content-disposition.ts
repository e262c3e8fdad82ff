/** File names as they travel in signed URLs and Content-Disposition headers. */
import { cutFileName, withoutInvisibleTricks } from '../common/file-names';

/**
 * A name that can be signed, put in a URL and sent back in a header: the rules of stored names
 * (file-names.ts: well-formed Unicode, no bidi controls, at most 255 code points with the
 * extension kept), no control characters or path separators, not empty.
 */
export function safeFileName(name: string): string {
  let clean = withoutInvisibleTricks(String(name))
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .trim();
  if (!clean || clean === '.' || clean === '..') clean = 'download';
  return cutFileName(clean);
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
