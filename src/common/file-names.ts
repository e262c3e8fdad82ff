/**
 * The one set of rules for file names a client gives (multipart, tus metadata, a job's input URL)
 * and for the names the service sends back (Content-Disposition, signed URLs, archives).
 */

/** At most this many characters (code points), the extension kept when cutting. */
export const MAX_FILE_NAME_LENGTH = 255;
/** A longer tail after the last dot is not an extension worth keeping. */
const MAX_EXTENSION_LENGTH = 16;

/**
 * Characters that change how a name reads without showing: bidirectional controls (embeddings,
 * overrides, isolates, marks: `photo\u202Egnp.exe` displays as `photoexe.png`) and zero-width
 * ones (space, non-joiner, joiner, word joiner, BOM: `invoice\u200B.pdf` looks like a name it is
 * not). Removed, not replaced: nothing of them should show. An emoji sequence joined by U+200D
 * falls apart into its emoji, which is the price of the rule.
 */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
/** A surrogate without its pair (not Unicode, and not encodable in a header). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A file name safe to store and to send back: no paths, no control characters, ≤ 255 characters with its extension. */
export function sanitizeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = withoutInvisibleTricks(base)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return cutFileName(clean || 'file');
}

/** Bidi controls and zero-width characters removed, lone surrogates replaced by U+FFFD. */
export function withoutInvisibleTricks(name: string): string {
  return name.replace(INVISIBLE, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** At most `max` code points (never half a surrogate pair), keeping an extension of up to 16 characters. */
export function cutFileName(name: string, max = MAX_FILE_NAME_LENGTH): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
  if (ext.length > 1 && ext.length <= MAX_EXTENSION_LENGTH) {
    return (
      Array.from(name.slice(0, dot))
        .slice(0, max - ext.length)
        .join('') + ext.join('')
    );
  }
  return chars.slice(0, max).join('');
}
