import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { deploymentPrefix } from '../queue/queue.module';
import { REDIS } from '../redis/redis.module';

/**
 * Which tus URL an upload was created through: `slug:<slug>` for `/v1/public/drops/{slug}/tus`,
 * `account:<account id>` for `/v1/uploads/tus`. Both are known from the request alone (its path,
 * or the key the guard already found), so an upload's admission is checked before any database
 * or storage read.
 */
export type AdmissionScope = `slug:${string}` | `account:${string}`;
export const slugScope = (slug: string): AdmissionScope => `slug:${slug}`;
export const accountScope = (accountId: string): AdmissionScope => `account:${accountId}`;

/**
 * The uploads a tus endpoint has admitted: created by a request that passed the request limit, and
 * neither finished, removed nor expired since. Their HEAD, PATCH and DELETE continue that one
 * admitted request and are not counted again: a client sending a file in chunks makes many
 * requests a second, each bounded by the address's upload slots and by the declared length, not by
 * the request rate. Any other id — unknown, finished, another drop's or account's — is counted, so
 * naming ids is no way around the limit. One Redis key per upload (value: its scope, shared by
 * every API process), set when tus creates the upload, deleted when the upload ends, expiring with
 * it. Redis unreachable: nothing is admitted, every request is counted (as before).
 */
@Injectable()
export class AdmittedUploads {
  private readonly logger = new Logger(AdmittedUploads.name);
  private readonly prefix: string;
  private readonly ttlMs: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: AppConfig,
  ) {
    this.prefix = `${deploymentPrefix(config)}:tus-admitted:`;
    // An incomplete upload expires this long after its creation; so does its admission.
    this.ttlMs = config.TUS_EXPIRY_SECONDS * 1000;
  }

  /** Records `id`, just created through `scope`. A failure leaves the upload counted like any request. */
  async admit(id: string, scope: AdmissionScope): Promise<void> {
    try {
      await this.redis.set(this.prefix + id, scope, 'PX', this.ttlMs);
    } catch (err) {
      this.logger.warn(`could not record tus upload ${id} as admitted: ${(err as Error).message}`);
    }
  }

  /** Whether `id` is an open upload created through `scope`. */
  async has(id: string, scope: AdmissionScope): Promise<boolean> {
    try {
      return (await this.redis.get(this.prefix + id)) === scope;
    } catch {
      return false;
    }
  }

  /** The upload ended (finished, refused, terminated): its requests are counted again. */
  async forget(id: string): Promise<void> {
    await this.redis.del(this.prefix + id).catch(() => undefined);
  }
}
