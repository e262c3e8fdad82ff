import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { Counter } from 'prom-client';
import { AppConfig } from '../config/config';
import type { ApiKey } from './api-key.entity';

/** The channel the api_keys / accounts triggers notify on (migration 1763900000000-auth-notify). */
export const AUTH_CHANNEL = 'dropline_auth';
/** How often the listening connection proves it is alive; past LIVENESS_MS without an answer the cache goes dark. */
const HEARTBEAT_MS = 2_000;
const LIVENESS_MS = 5_000;
const RECONNECT_MAX_MS = 10_000;
/** Bounds memory; past it the oldest entry goes. An entry also ages out, a safety net only. */
const MAX_ENTRIES = 10_000;
const MAX_AGE_MS = 10 * 60_000;

/** Where authenticated requests found their key; the two-process revocation test reads it too. */
export const keyLookups = new Counter({
  name: 'dropline_api_key_lookups_total',
  help: 'API key lookups by source: the in-process cache or the database',
  labelNames: ['source'] as const,
});

interface Entry {
  key: ApiKey;
  cachedAt: number;
}

/**
 * API keys (with their account) by token hash, so an authenticated request needs no database
 * round trip. Kept correct by push, not by TTL: the database triggers NOTIFY on every key change
 * and every plan change, in the committing transaction, and this process LISTENs on a connection
 * of its own and drops the entry at once. The cache answers only while that connection is
 * listening and answered its last heartbeat; otherwise (Postgres restarting, a dead socket)
 * every lookup goes to the database and nothing is cached, so a revoked key is never served from
 * a cache that may have missed its notification. On reconnect the cache starts empty.
 *
 * A lookup that started before an invalidation must not store what it read: `generation` counts
 * invalidations, and `store` refuses an entry read under an older one.
 */
@Injectable()
export class ApiKeyCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, Entry>();
  private generationCount = 0;
  private listening = false;
  private lastAliveAt = 0;
  private client?: Client;
  private heartbeat?: NodeJS.Timeout;
  private reconnect?: NodeJS.Timeout;
  private reconnectDelay = 500;
  private closed = false;

  constructor(private readonly config: AppConfig) {}

  /** The cached key, or undefined (not cached, or the cache cannot vouch for freshness now). */
  get(tokenHash: string): ApiKey | undefined {
    if (!this.live()) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (Date.now() - entry.cachedAt > MAX_AGE_MS) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.key;
  }

  /** Take before reading the database; pass to `store`. */
  get generation(): number {
    return this.generationCount;
  }

  store(tokenHash: string, key: ApiKey, readAtGeneration: number): void {
    if (!this.live() || readAtGeneration !== this.generationCount) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { key, cachedAt: Date.now() });
  }

  /** Drops the entries of a key or of every key of an account (also called by the LISTEN handler). */
  invalidate(change: { keyId?: string; accountId?: string }): void {
    this.generationCount++;
    for (const [hash, { key }] of this.entries) {
      if (key.id === change.keyId || key.accountId === change.accountId) this.entries.delete(hash);
    }
  }

  /** True while a notification cannot have been missed. */
  live(): boolean {
    return this.listening && Date.now() - this.lastAliveAt < LIVENESS_MS;
  }

  /** Only the HTTP app has this provider (AuthModule): the CLI and the worker never listen. */
  onApplicationBootstrap(): void {
    void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.goDark();
    clearTimeout(this.reconnect);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: 'dropline-auth-cache',
      keepAlive: true,
      // A heartbeat on a dead socket must fail (and reconnect), not hang.
      query_timeout: LIVENESS_MS,
      connectionTimeoutMillis: LIVENESS_MS,
    });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel !== AUTH_CHANNEL) return;
      try {
        this.invalidate(JSON.parse(msg.payload ?? '{}'));
      } catch {
        this.clear(); // unreadable: forget everything rather than guess
      }
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANNEL}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.client !== client || this.closed) return;
    this.clear(); // whatever changed while we were not listening
    this.listening = true;
    this.lastAliveAt = Date.now();
    this.reconnectDelay = 500;
    // Notifications arrive in order on this connection: an answered query proves none is pending.
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').then(
        () => (this.lastAliveAt = Date.now()),
        (err) => this.lost(client, err),
      );
    }, HEARTBEAT_MS).unref();
  }

  private lost(client: Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.goDark();
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn(`Not listening for key changes (${err?.message ?? 'connection ended'}); API keys are read from the database until it is back`);
    this.reconnect = setTimeout(() => void this.connect(), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  private goDark(): void {
    this.listening = false;
    clearInterval(this.heartbeat);
    this.clear();
  }

  private clear(): void {
    this.generationCount++;
    this.entries.clear();
  }
}
