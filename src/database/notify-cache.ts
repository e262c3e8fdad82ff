import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** How often the listening connection proves it is alive; past LIVENESS_MS without an answer the cache goes dark. */
const HEARTBEAT_MS = 2_000;
const LIVENESS_MS = 5_000;
const RECONNECT_MAX_MS = 10_000;

export interface NotifyCacheOptions {
  /** The channel the table's trigger notifies on; each notification's payload is the key to forget. */
  channel: string;
  /** Bounds memory; past it the oldest entry goes. */
  maxEntries: number;
  /** An entry also ages out: a safety net only, correctness comes from the notifications. */
  maxAgeMs: number;
}

interface Entry<V> {
  value: V;
  cachedAt: number;
}

/**
 * Rows cached in this process, kept correct by push, not by TTL: a trigger NOTIFYs the row's key
 * in the committing transaction and this process LISTENs on a connection of its own and drops the
 * entry at once (the same scheme as src/auth/api-key-cache.ts). The cache answers only while that
 * connection is listening and answered its last heartbeat; otherwise every read goes to the
 * database and nothing is stored, so a stale row is never served from a cache that may have missed
 * its notification. On reconnect it starts empty.
 *
 * A read that started before an invalidation must not store what it read: `generation` counts
 * invalidations, and `store` refuses an entry read under an older one.
 */
export class NotifyCache<V> {
  private readonly logger: Logger;
  private readonly entries = new Map<string, Entry<V>>();
  private generationCount = 0;
  private listening = false;
  private lastAliveAt = 0;
  private client?: Client;
  private heartbeat?: NodeJS.Timeout;
  private reconnect?: NodeJS.Timeout;
  private reconnectDelay = 500;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: NotifyCacheOptions,
  ) {
    this.logger = new Logger(`NotifyCache(${options.channel})`);
  }

  /** The cached value, or undefined (not cached, or the cache cannot vouch for freshness now). */
  get(key: string): V | undefined {
    if (!this.live()) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.cachedAt > this.options.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * The cached value once every change committed before this call has been applied: a write that
   * another process answered before this read began is seen. Notifications arrive in order on the
   * listening connection, ahead of the answer to any later query on it, so a `SELECT 1` sent after
   * this call and answered proves none is pending. Reads share those queries: a read waits for the
   * next one to be sent (at most two round trips on that connection), never for one per read.
   */
  async getSynced(key: string): Promise<V | undefined> {
    if (this.get(key) === undefined) return undefined;
    await this.sync();
    return this.get(key);
  }

  private inFlight?: Promise<void>;
  private next?: Promise<void>;

  private sync(): Promise<void> {
    if (!this.inFlight) return (this.inFlight = this.ping());
    // The query in flight may have been sent before this call: wait for the one after it.
    return (this.next ??= this.inFlight.then(() => {
      this.inFlight = this.next;
      this.next = undefined;
      return this.ping();
    }));
  }

  private async ping(): Promise<void> {
    const client = this.client;
    try {
      if (client) {
        await client.query('SELECT 1');
        this.lastAliveAt = Date.now();
      }
    } catch (err) {
      if (client) this.lost(client, err as Error); // the cache goes dark: the caller reads the database
    } finally {
      if (this.next === undefined) this.inFlight = undefined;
    }
  }

  /** Take before reading the database; pass to `store`. */
  get generation(): number {
    return this.generationCount;
  }

  store(key: string, value: V, readAtGeneration: number): void {
    if (!this.live() || readAtGeneration !== this.generationCount) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, cachedAt: Date.now() });
  }

  invalidate(key: string): void {
    this.generationCount++;
    this.entries.delete(key);
  }

  /** True while a notification cannot have been missed. */
  live(): boolean {
    return this.listening && Date.now() - this.lastAliveAt < LIVENESS_MS;
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.goDark();
    clearTimeout(this.reconnect);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: `dropline-${this.options.channel}`,
      keepAlive: true,
      // A heartbeat on a dead socket must fail (and reconnect), not hang.
      query_timeout: LIVENESS_MS,
      connectionTimeoutMillis: LIVENESS_MS,
    });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel !== this.options.channel) return;
      if (msg.payload) this.invalidate(msg.payload);
      else this.clear(); // no key: forget everything rather than guess
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
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
    this.logger.warn(`Not listening on ${this.options.channel} (${err?.message ?? 'connection ended'}); rows are read from the database until it is back`);
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
