import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/** EVALSHA, and EVAL once when Redis does not know the script yet (after a restart or a SCRIPT FLUSH). */
export async function evalCached(redis: Redis, script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
  const sha = shas.get(script) ?? createHash('sha1').update(script).digest('hex');
  shas.set(script, sha);
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err as Error).message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(script, keys.length, ...keys, ...args);
  }
}

const shas = new Map<string, string>();
