import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LOWER36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Uniform random string over an alphabet (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Public identifiers: a type prefix and 16 base62 characters (~95 bits). */
export function newId(prefix: 'acc' | 'key' | 'drp' | 'sub' | 'job' | 'upl' | 'whd' | 'obj' | 'led' | 'tpl' | 'evt'): string {
  return `${prefix}_${randomString(16)}`;
}

export function randomSlug(): string {
  return randomString(10, LOWER36);
}
