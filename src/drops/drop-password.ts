import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../common/domain-error';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB per check; below OWASP's 2^17, chosen because a
 * check runs on the API's thread pool for each new sender, DropGate remembering verified ones).
 * Recorded in each hash, so it can be raised without invalidating stored passwords.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;

/**
 * scrypt runs on libuv's thread pool (4 threads), which file reads and writes share: at most
 * SCRYPT_AT_ONCE derivations run at a time per process, so 3 threads stay free for uploads however
 * many senders knock (docs/decisions.md §15). At most SCRYPT_WAITING wait behind it (a few seconds
 * of work on a busy 2-core machine); the next is a 429 instead of an ever longer queue.
 */
export const SCRYPT_AT_ONCE = 1;
export const SCRYPT_WAITING = 16;

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= SCRYPT_AT_ONCE) {
    if (waiting.length >= SCRYPT_WAITING) throw tooManyChecks();
    await new Promise<void>((start) => waiting.push(start));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (running stays counted), else it is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function tooManyChecks(): DomainError {
  return new DomainError('rate_limited', 'Too many drop passwords are being checked right now; retry in 1 s.', { retryAfterSeconds: 1 });
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: 128 * options.N! * options.r! * 2 }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

/** A drop password as stored: `scrypt$N$r$p$salt$hash` (base64), with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether `password` matches `stored`, compared in constant time. A malformed hash matches nothing.
 * 429 `rate_limited` when SCRYPT_WAITING checks are already waiting.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
