import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** How often the listening connection proves it is alive; past LIVENESS_MS without an answer it is redialled. */
const HEARTBEAT_MS = 2_000;
const LIVENESS_MS = 5_000;
const RECONNECT_MAX_MS = 10_000;

export interface PgListenerOptions {
  channel: string;
  /** Every notification on the channel, with its payload ('' when it has none). */
  onNotification(payload: string): void;
  /**
   * The connection listens (again): notifications sent while it did not are lost, so whoever
   * relies on them re-reads what they watch. Also called on the first connection.
   */
  onListening?(): void;
}

/**
 * One connection of its own that LISTENs on one channel and hands every notification to one
 * handler, which fans it out in memory: however many requests watch the channel, the process
 * holds one connection and runs one heartbeat (the scheme of NotifyCache, without the cache).
 * A dead connection (Postgres restarting, a silent socket) is redialled with backoff; each time
 * it listens again `onListening` says so, since notifications of the gap are gone.
 */
export class PgListener {
  private readonly logger: Logger;
  private client?: Client;
  private heartbeat?: NodeJS.Timeout;
  private reconnect?: NodeJS.Timeout;
  private reconnectDelay = 500;
  private started = false;
  private closed = false;
  private listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PgListenerOptions,
  ) {
    this.logger = new Logger(`PgListener(${options.channel})`);
  }

  /** Idempotent: the first call dials, later ones do nothing. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  /** True while a notification cannot have been missed. */
  isListening(): boolean {
    return this.listening;
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
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
      if (msg.channel === this.options.channel) this.options.onNotification(msg.payload ?? '');
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
    this.listening = true;
    this.reconnectDelay = 500;
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch((err: Error) => this.lost(client, err));
    }, HEARTBEAT_MS).unref();
    this.options.onListening?.();
  }

  private lost(client: Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.heartbeat);
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn(`Not listening on ${this.options.channel} (${err?.message ?? 'connection ended'}); redialling`);
    this.reconnect = setTimeout(() => void this.connect(), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }
}
