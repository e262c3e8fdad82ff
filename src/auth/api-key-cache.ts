import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ListenClient } from '../database/listen-client';
import { NotifyCache } from '../database/notify-cache';
import type { ApiKey } from './api-key.entity';

/** The channel the api_keys / accounts triggers notify on (migration 1763900000000-auth-notify). */
export const AUTH_CHANNEL = 'dropline_auth';

/** Where authenticated requests found their key; the two-process revocation test reads it too. */
export const keyLookups = new Counter({
  name: 'dropline_api_key_lookups_total',
  help: 'API key lookups by source: the in-process cache or the database',
  labelNames: ['source'] as const,
});

/**
 * API keys (with their account) by token hash, so an authenticated request needs no database
 * round trip. The database triggers NOTIFY on every key change and every plan change, in the
 * committing transaction, with `{ keyId }` or `{ accountId }`; the entries of that key or account
 * go at once (NotifyCache: while the listening connection is down, every lookup goes to the
 * database, so a revoked key is never served from a cache that may have missed its notification).
 * Only the HTTP app has this provider (AuthModule): the CLI and the worker never listen.
 */
@Injectable()
export class ApiKeyCache extends NotifyCache<ApiKey> {
  constructor(listen: ListenClient) {
    super(listen, { channel: AUTH_CHANNEL, maxEntries: 10_000, maxAgeMs: 10 * 60_000 });
  }

  /** Drops the entries of a key or of every key of an account. */
  invalidateKeys(change: { keyId?: string; accountId?: string }): void {
    this.forget((_hash, key) => key.id === change.keyId || key.accountId === change.accountId);
  }

  protected override onNotification(payload: string): void {
    try {
      this.invalidateKeys(JSON.parse(payload || '{}') as { keyId?: string; accountId?: string });
    } catch {
      this.clear(); // unreadable: forget everything rather than guess
    }
  }
}
