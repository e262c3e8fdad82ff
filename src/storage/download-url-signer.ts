import { Injectable, Logger } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppConfig, publicBaseUrl } from '../config/config';
import { assertExpiresIn, assertStorageKey, STORAGE_KEY_PATTERN } from './storage.driver';
import { safeFileName } from './content-disposition';

export type SignatureVerdict = 'ok' | 'invalid_signature' | 'url_expired';

export interface SignedDownload {
  key: string;
  name: string;
  /** Unix seconds, as in the `expires` query parameter. */
  expires: number;
  sig: string;
}

/**
 * Signs and verifies the local driver's download URLs:
 * `{PUBLIC_BASE_URL}/v1/files/{key}?expires={unix s}&name={file name}&sig={base64url HMAC-SHA256}`.
 *
 * The HMAC covers the key, the expiry and the file name, so changing any of them breaks the
 * signature. The secret is SIGNING_SECRET. When it is unset a random secret is generated for this
 * process only: URLs then stop working when the process restarts, and a URL signed by one process
 * (e.g. the worker) is rejected by another (the API). Set SIGNING_SECRET whenever more than one
 * process serves or signs downloads.
 */
@Injectable()
export class DownloadUrlSigner {
  private readonly secret: Buffer;
  private readonly baseUrl: string;

  constructor(config: AppConfig) {
    this.baseUrl = publicBaseUrl(config);
    if (config.SIGNING_SECRET) {
      this.secret = Buffer.from(config.SIGNING_SECRET, 'utf8');
    } else {
      this.secret = randomBytes(32);
      new Logger('Storage').warn('SIGNING_SECRET is not set: download URLs are signed with a per-process random secret.');
    }
  }

  /** A signed URL for `key`, valid `expiresIn` seconds from `nowMs`. */
  url(key: string, fileName: string, expiresIn: number, nowMs = Date.now()): string {
    assertStorageKey(key);
    assertExpiresIn(expiresIn);
    const name = safeFileName(fileName);
    const expires = Math.floor(nowMs / 1000) + expiresIn;
    const query = `expires=${expires}&name=${encodeURIComponent(name)}&sig=${this.sign(key, name, expires)}`;
    return `${this.baseUrl}/v1/files/${key}?${query}`;
  }

  /** Signature first (any change to key, name or expiry is `invalid_signature`), then expiry. */
  verify(download: SignedDownload, nowMs = Date.now()): SignatureVerdict {
    const { key, name, expires, sig } = download;
    if (typeof key !== 'string' || typeof name !== 'string' || typeof sig !== 'string') return 'invalid_signature';
    if (!STORAGE_KEY_PATTERN.test(key)) return 'invalid_signature';
    if (!Number.isSafeInteger(expires)) return 'invalid_signature';
    const expected = Buffer.from(this.sign(key, name, expires), 'utf8');
    const given = Buffer.from(sig, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid_signature';
    if (Math.floor(nowMs / 1000) > expires) return 'url_expired';
    return 'ok';
  }

  /** base64url(HMAC-SHA256(secret, "dl1\n{key}\n{expires}\n{name}")); the name goes last so it may hold anything. */
  private sign(key: string, name: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`dl1\n${key}\n${expires}\n${name}`, 'utf8').digest('base64url');
  }
}
