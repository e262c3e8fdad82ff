import { createHash } from 'node:crypto';
import { randomString } from '../common/ids';

export const TOKEN_PREFIX = 'dl_live_';
const TOKEN_PATTERN = /^dl_live_[0-9A-Za-z]{32}$/;

export function newToken(): string {
  return TOKEN_PREFIX + randomString(32);
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** `Authorization: Bearer <token>` → the token, or undefined when missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/.exec(header ?? '');
  return match && isWellFormedToken(match[1]) ? match[1] : undefined;
}
