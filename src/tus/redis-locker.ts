import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Lock, Locker, RequestRelease } from '@tus/utils';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../common/domain-error';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';
import { tusError } from './tus-bridge';

/** A lock outlives a process that died holding it by at most this long. */
const LEASE_MS = 10_000;
/** The holder extends its lease this often. */
const RENEW_MS = LEASE_MS / 4;
/** How long a request waits for the lock (then 423), asking the holder to let go meanwhile. */
const ACQUIRE_TIMEOUT_MS = 20_000;
const RETRY_MS = 50;
const ASK_AGAIN_MS = 1000;

/** Deletes or extends the lock only while it is still ours (a lease that lapsed may be someone else's now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * The tus upload lock, shared by every API process through Redis (@tus/server's own MemoryLocker
 * only knows its process: a PATCH stalled on one process and resumed on another later woke and
 * wrote into the finished upload). One holder per upload id at a time: `SET NX PX` with a lease the
 * holder renews. A request that finds the upload locked publishes a release request; the process
 * holding it ends the holder's request (tus's `cancelReq`: the stalled PATCH stops writing and
 * lets go), as tus asks of a locker so a client that resumes after a broken connection is not
 * locked out by its own half-open request. A holder whose lease cannot be renewed stops too.
 */
@Injectable()
export class RedisLocker implements Locker, OnApplicationShutdown {
  private readonly logger = new Logger(RedisLocker.name);
  private readonly prefix: string;
  /** Release requests come on one channel per deployment; the message is the upload id. */
  private readonly channel: string;
  /** Upload ids locked by this process → how to ask their holder to let go. */
  private readonly held = new Map<string, RequestRelease>();
  private subscriber?: Redis;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: AppConfig,
  ) {
    this.prefix = `${deploymentPrefix(config)}:tus-lock:`;
    this.channel = `${deploymentPrefix(config)}:tus-lock-release`;
  }

  newLock(id: string): Lock {
    return new RedisLock(this, id);
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT needs a live connection; during an outage it would wait for one (see RedisModule).
    this.subscriber?.disconnect();
  }

  /** @internal */ key(id: string): string {
    return this.prefix + id;
  }

  /** @internal */ async tryAcquire(id: string, token: string): Promise<boolean> {
    return (await this.redis.set(this.key(id), token, 'PX', LEASE_MS, 'NX')) === 'OK';
  }

  /** @internal */ async renew(id: string, token: string): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, this.key(id), token, String(LEASE_MS))) === 1;
  }

  /** @internal */ async release(id: string, token: string): Promise<void> {
    this.held.delete(id);
    await this.redis.eval(RELEASE, 1, this.key(id), token);
  }

  /** @internal */ async holding(id: string, requestRelease: RequestRelease): Promise<void> {
    this.held.set(id, requestRelease);
    await this.listen();
  }

  /** @internal */ async askToRelease(id: string): Promise<void> {
    await this.redis.publish(this.channel, id);
  }

  /** One subscriber connection per process, opened with the first lock. */
  private async listen(): Promise<void> {
    if (this.subscriber) return;
    const subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: true });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined); // the shared connection's outage log says it
    subscriber.on('message', (_channel: string, id: string) => {
      const release = this.held.get(id);
      if (release) void Promise.resolve(release()).catch((err: Error) => this.logger.warn(`releasing tus lock ${id}: ${err.message}`));
    });
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.channel);
    } catch (err) {
      this.subscriber = undefined;
      subscriber.disconnect();
      throw err;
    }
  }
}

class RedisLock implements Lock {
  private readonly token = randomUUID();
  private renewal?: NodeJS.Timeout;

  constructor(
    private readonly locker: RedisLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
    let askedAt = 0;
    for (;;) {
      if (await this.locker.tryAcquire(this.id, this.token).catch(unavailable)) break;
      // @tus/server answers its own `{status_code, body}` shape (tus-bridge.ts), not an Error.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (signal.aborted || Date.now() > deadline) throw tusError(busy());
      if (Date.now() - askedAt >= ASK_AGAIN_MS) {
        askedAt = Date.now();
        await this.locker.askToRelease(this.id).catch(unavailable);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    try {
      await this.locker.holding(this.id, requestRelease);
    } catch (err) {
      await this.locker.release(this.id, this.token).catch(() => undefined);
      unavailable(err);
    }
    this.renewal = setInterval(() => {
      // A lease we cannot extend may lapse and go to another request: stop writing before it does.
      this.locker.renew(this.id, this.token).then(
        (ours) => ours || void requestRelease(),
        () => void requestRelease(),
      );
    }, RENEW_MS);
    this.renewal.unref();
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    await this.locker.release(this.id, this.token).catch(() => undefined);
  }
}

/** 423, which tus clients (tus-js-client, our page) retry. */
function busy(): DomainError {
  return new DomainError('upload_locked', 'Another request is still writing this upload; retry in a moment.');
}

/** Redis unreachable: without the shared lock no byte may be written (503 `unavailable`, as the rate limits answer). */
function unavailable(err: unknown): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw tusError(new DomainError('unavailable', `The service is temporarily unavailable; retry shortly (${(err as Error).message}).`));
}
