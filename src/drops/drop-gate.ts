import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import type { Drop } from './drop.entity';
import { verifyPassword } from './drop-password';

/** Wrong passwords one address may try on one drop in a window; the next try is a 429. */
export const WRONG_PASSWORDS_ALLOWED = 10;
/**
 * Wrong passwords one address may try across all drops in a window: each costs a scrypt, and one
 * account can own any number of protected drops to knock on.
 */
export const WRONG_PASSWORDS_PER_ADDRESS = 20;
const WINDOW_SECONDS = 60;
/** Passwords this process has verified lately, so a sender's next requests skip scrypt. */
const VERIFIED_MAX = 5_000;
const VERIFIED_MS = 10 * 60_000;

/** Who is knocking: the `Drop-Password` header (if any) and the client address. */
export interface SenderAccess {
  password: string | undefined;
  ip: string;
}

/**
 * The password of a protected drop, on every public operation that reads it or sends to it.
 * Wrong tries are counted per address and drop, and per address across all drops, in Redis (shared
 * by every API process; in memory while Redis is down): past WRONG_PASSWORDS_ALLOWED on one drop,
 * or WRONG_PASSWORDS_PER_ADDRESS on all, in a minute, every try is a 429 until the window ends,
 * the right password included — a guesser learns nothing more, and costs no more scrypt.
 */
@Injectable()
export class DropGate {
  private readonly logger = new Logger(DropGate.name);
  private readonly wrongTries: RateLimiterRedis;
  private readonly wrongTriesOfAddress: RateLimiterRedis;
  /** sha256(stored hash, password) → when it was verified. A changed password has another stored hash. */
  private readonly verified = new Map<string, number>();

  constructor(@Inject(REDIS) redis: Redis, config: AppConfig) {
    const limiter = (keyPrefix: string, points: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points,
        duration: WINDOW_SECONDS,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS }),
      });
    this.wrongTries = limiter(`${deploymentPrefix(config)}:rl:drop-password`, WRONG_PASSWORDS_ALLOWED);
    this.wrongTriesOfAddress = limiter(`${deploymentPrefix(config)}:rl:drop-password-ip`, WRONG_PASSWORDS_PER_ADDRESS);
  }

  /** 401 without a password, 429 over the budget of wrong tries, 403 for a wrong one; nothing for an open drop. */
  async admit(drop: Pick<Drop, 'id' | 'name' | 'passwordHash'>, access: SenderAccess): Promise<void> {
    if (!drop.passwordHash) return;
    if (!access.password) {
      throw new DomainError('password_required', 'This drop is protected by a password; send it in the Drop-Password header.', {
        members: { drop: { name: drop.name, requiresPassword: true } },
      });
    }
    const key = `${drop.id}:${access.ip}`;
    const [spent, spentOfAddress] = await Promise.all([this.wrongTries.get(key).catch(() => null), this.wrongTriesOfAddress.get(access.ip).catch(() => null)]);
    if (spent && spent.consumedPoints >= WRONG_PASSWORDS_ALLOWED) throw tooManyTries('drop', spent.msBeforeNext);
    if (spentOfAddress && spentOfAddress.consumedPoints >= WRONG_PASSWORDS_PER_ADDRESS) throw tooManyTries('address', spentOfAddress.msBeforeNext);
    const proof = createHash('sha256').update(drop.passwordHash).update('\0').update(access.password).digest('base64');
    const seen = this.verified.get(proof);
    if (seen !== undefined && Date.now() - seen < VERIFIED_MS) return;
    if (await verifyPassword(access.password, drop.passwordHash)) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(proof, Date.now());
      return;
    }
    const [ofDrop, ofAddress] = await Promise.allSettled([this.wrongTries.consume(key, 1), this.wrongTriesOfAddress.consume(access.ip, 1)]);
    for (const [scope, counted] of [
      ['drop', ofDrop],
      ['address', ofAddress],
    ] as const) {
      if (counted.status === 'fulfilled') continue;
      if (counted.reason instanceof RateLimiterRes) throw tooManyTries(scope, counted.reason.msBeforeNext);
      this.logger.warn({ err: counted.reason instanceof Error ? counted.reason.message : String(counted.reason) }, 'Wrong drop password not counted');
    }
    throw new DomainError('wrong_password', 'The password for this drop is wrong.');
  }
}

function tooManyTries(scope: 'drop' | 'address', ms: number): DomainError {
  const retryAfter = Math.max(1, Math.ceil(ms / 1000));
  const which = scope === 'drop' ? 'for this drop' : 'for drops';
  return new DomainError('rate_limited', `Too many wrong passwords ${which} from your address; retry in ${retryAfter} s.`, {
    retryAfterSeconds: retryAfter,
    rateLimit: { limit: scope === 'drop' ? WRONG_PASSWORDS_ALLOWED : WRONG_PASSWORDS_PER_ADDRESS, remaining: 0, resetSeconds: retryAfter },
  });
}

/** The `Drop-Password` header as sent; several values (an array) count as none. */
export function dropPasswordHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['drop-password'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
