import { DomainError } from './domain-error';

/**
 * The deepest nesting of objects and arrays a JSON request body may have; the body itself is
 * level 1. The contract's deepest body (a job) needs 3. Code after the parser (the NUL check, Ajv,
 * the idempotency fingerprint) walks bodies recursively: a body 10,000 levels deep would overflow the
 * stack there. Documented in openapi.yaml (info and `validation_failed`).
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, in one pass over its bytes
 * (brackets inside strings do not count). Any multi-byte UTF-8 sequence is made of bytes ≥ 0x80,
 * so the ASCII bytes looked at here are always characters of their own. Text that is not JSON
 * gets an answer too; the parser then refuses it.
 */
export function nestsDeeperThan(text: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

export function tooDeep(): DomainError {
  const message = `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;
  return DomainError.validation(`The JSON body ${message}.`, [{ path: 'body', message }]);
}
