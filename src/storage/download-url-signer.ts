import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Clock } from '../common/clock';
import { AppConfig, publicBaseUrl } from '../config/config';
import { assertExpiresIn, assertStorageKey, STORAGE_KEY_PATTERN } from './storage.driver';
import { safeFileName } from './content-disposition';
import { ServiceSecretsRepository } from './service-secrets.repository';

export type SignatureVerdict = 'ok' | 'invalid_signature' | 'url_expired';

export interface SignedDownload {
  key: string;
  name: string;
  /** Unix seconds, as in the `expires` query parameter. */
  expires: number;
  sig: string;
  /** The Content-Type the download is served with; signed too, so it cannot be swapped for text/html. */
  type?: string;
}

/**
 * Signs and verifies the local driver's download URLs:
 * `{PUBLIC_BASE_URL}/v1/files/{key}?expires={unix s}&name={file name}&sig={base64url HMAC-SHA256}`.
 *
 * The HMAC covers the key, the expiry and the file name, so changing any of them breaks the
 * signature. The secret is SIGNING_SECRET. When it is unset, one is generated once and kept in the
 * database (table service_secrets), so a restart or another process (the worker, a second API)
 * honours the links already handed out.
 */
@Injectable()
export class DownloadUrlSigner implements OnModuleInit {
  private secret: Buffer;
  private readonly baseUrl: string;

  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly clock: Clock = new Clock(),
    @Optional() private readonly secrets?: ServiceSecretsRepository,
  ) {
    this.baseUrl = publicBaseUrl(config);
    // Until onModuleInit reads the shared one: a secret nobody else knows signs nothing usable.
    this.secret = config.SIGNING_SECRET ? Buffer.from(config.SIGNING_SECRET, 'utf8') : randomBytes(32);
  }

  async onModuleInit(): Promise<void> {
    if (this.config.SIGNING_SECRET || !this.secrets) return;
    // The first process to start creates it; every later one (and every restart) reads the same.
    const kept = await this.secrets.keepFirst('signing_secret', randomBytes(32).toString('base64url'));
    this.secret = Buffer.from(kept, 'base64url');
    new Logger('Storage').log('SIGNING_SECRET is not set: download URLs are signed with the secret kept in the database.');
  }

  /** A signed URL for `key`, valid `expiresIn` seconds from `nowMs`. */
  url(key: string, fileName: string, expiresIn: number, nowMs = this.clock.now().getTime(), type?: string): string {
    assertStorageKey(key);
    assertExpiresIn(expiresIn);
    const name = safeFileName(fileName);
    const expires = Math.floor(nowMs / 1000) + expiresIn;
    const typed = type ? `&type=${encodeURIComponent(type)}` : '';
    const query = `expires=${expires}&name=${encodeURIComponent(name)}${typed}&sig=${this.sign(key, name, expires, type)}`;
    return `${this.baseUrl}/v1/files/${key}?${query}`;
  }

  /** Signature first (any change to key, name or expiry is `invalid_signature`), then expiry. */
  verify(download: SignedDownload, nowMs = this.clock.now().getTime()): SignatureVerdict {
    const { key, name, expires, sig, type } = download;
    if (typeof key !== 'string' || typeof name !== 'string' || typeof sig !== 'string') return 'invalid_signature';
    if (type !== undefined && typeof type !== 'string') return 'invalid_signature';
    if (!STORAGE_KEY_PATTERN.test(key)) return 'invalid_signature';
    if (!Number.isSafeInteger(expires)) return 'invalid_signature';
    const expected = Buffer.from(this.sign(key, name, expires, type || undefined), 'utf8');
    const given = Buffer.from(sig, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid_signature';
    if (Math.floor(nowMs / 1000) > expires) return 'url_expired';
    return 'ok';
  }

  /**
   * base64url(HMAC-SHA256(secret, "dl1\n{key}\n{expires}\n{name}")), or "dl2\n{key}\n{expires}\n{type}\n{name}"
   * for a typed URL; the name goes last so it may hold anything.
   */
  private sign(key: string, name: string, expires: number, type?: string): string {
    const payload = type ? `dl2\n${key}\n${expires}\n${type}\n${name}` : `dl1\n${key}\n${expires}\n${name}`;
    return createHmac('sha256', this.secret).update(payload, 'utf8').digest('base64url');
  }
}
