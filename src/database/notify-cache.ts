import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ListenClient } from './listen-client';

export interface NotifyCacheOptions {
  /** The channel the table's trigger notifies on. */
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
 * Rows cached in this process, kept correct by push, not by TTL: a trigger NOTIFYs the change in
 * the committing transaction and the process's listening connection (ListenClient) hands it here,
 * which drops the entry at once. The cache answers only while that connection listens on its
 * channel and answered its last heartbeat; otherwise every read goes to the database and nothing
 * is stored, so a stale row is never served from a cache that may have missed its notification.
 * When it listens again it starts empty.
 *
 * A read that started before an invalidation must not store what it read: `generation` counts
 * invalidations, and `store` refuses an entry read under an older one.
 *
 * By default a notification's payload is the key to forget (none: forget everything); a cache
 * whose payload says more overrides `onNotification`.
 */
export class NotifyCache<V> implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry<V>>();
  private generationCount = 0;
  private unsubscribe?: () => void;

  constructor(
    private readonly listen: ListenClient,
    private readonly options: NotifyCacheOptions,
  ) {}

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
   * another process answered before this read began is seen (ListenClient.sync).
   */
  async getSynced(key: string): Promise<V | undefined> {
    if (this.get(key) === undefined) return undefined;
    await this.listen.sync();
    return this.get(key);
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
    return this.listen.isListening(this.options.channel);
  }

  /** Subscribes to the channel (the listening connection dials with the first subscriber). */
  start(): void {
    this.unsubscribe ??= this.listen.subscribe(this.options.channel, {
      onNotification: (payload) => this.onNotification(payload),
      onListening: () => this.clear(), // whatever changed while nobody listened
      onLost: () => this.clear(),
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.clear();
  }

  /** A cache that is a Nest provider listens from the app's start to its shutdown. */
  onApplicationBootstrap(): void {
    this.start();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  protected onNotification(payload: string): void {
    if (payload) this.invalidate(payload);
    else this.clear(); // no key: forget everything rather than guess
  }

  /** Drops every entry `match` picks, and makes reads begun before now store nothing. */
  protected forget(match: (key: string, value: V) => boolean): void {
    this.generationCount++;
    for (const [key, { value }] of this.entries) if (match(key, value)) this.entries.delete(key);
  }

  protected clear(): void {
    this.generationCount++;
    this.entries.clear();
  }
}
