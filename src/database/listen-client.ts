import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../config/config';

/** How often the listening connection proves it is alive; past LIVENESS_MS without an answer nothing may trust it. */
const HEARTBEAT_MS = 2_000;
const LIVENESS_MS = 5_000;
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 10_000;
/** What the connection is called in pg_stat_activity (the fault tests cut it by this name). */
export const LISTEN_APPLICATION_NAME = 'dropline-listen';

export interface ChannelSubscriber {
  /** Every notification on the channel, with its payload ('' when it has none). */
  onNotification(payload: string): void;
  /**
   * The connection listens (again) on the channel: notifications sent while it did not are lost,
   * so whoever relies on them re-reads or forgets what they watch. Also called the first time.
   */
  onListening?(): void;
  /** The connection is gone: until `onListening`, notifications may be missed. */
  onLost?(): void;
}

/** One dialled connection and the channels it LISTENs on; a reconnect makes a new one. */
interface Connection {
  client: Client;
  listened: Set<string>;
  pending: Set<string>;
  /** Dialled: from now on a new channel is LISTENed at once. */
  ready: boolean;
  heartbeat?: NodeJS.Timeout;
}

/**
 * The process's one Postgres connection for LISTEN: the key cache, the drop cache and the job
 * waits subscribe to their channels here, so a process holds one listening connection and one
 * heartbeat however many channels and readers it has. It dials on the first subscription: a
 * process that subscribes to nothing (the CLI, a worker) never listens.
 *
 * A dead connection (Postgres restarting, a silent socket) is redialled with backoff; subscribers
 * hear `onLost` at once and `onListening` when their channel is listened on again, since the
 * notifications of the gap are gone. Notifications arrive in order on the connection, ahead of
 * the answer to any later query on it, so an answered query proves none is pending: that is what
 * the heartbeat and `sync` rely on.
 */
@Injectable()
export class ListenClient implements OnApplicationShutdown {
  private readonly logger = new Logger('ListenClient');
  private readonly subscribers = new Map<string, Set<ChannelSubscriber>>();
  private connection?: Connection;
  private lastAliveAt = 0;
  private reconnect?: NodeJS.Timeout;
  private reconnectDelay = RECONNECT_FIRST_MS;
  private started = false;
  private closed = false;
  private inFlight?: Promise<void>;
  private next?: Promise<void>;

  constructor(private readonly config: AppConfig) {}

  /** Hands the channel's notifications to `subscriber` from now on; dials on the first call. Returns the unsubscribe. */
  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    if (this.closed) return () => set.delete(subscriber);
    if (!this.started) {
      this.started = true;
      void this.connect();
    } else if (this.connection?.listened.has(channel)) {
      subscriber.onListening?.();
    } else if (this.connection?.ready) {
      void this.listenAll(this.connection);
    }
    return () => set.delete(subscriber);
  }

  /** True while no notification on `channel` can have been missed: listened on, and the last heartbeat answered. */
  isListening(channel: string): boolean {
    return !!this.connection?.listened.has(channel) && Date.now() - this.lastAliveAt < LIVENESS_MS;
  }

  /**
   * Resolves once every notification committed before this call has been handed out: a
   * `SELECT 1` sent after this call is answered on the listening connection. Callers share those
   * queries: one waits for the next one to be sent (at most two round trips), never for one each.
   * A failed query drops the connection, so `isListening` then says false.
   */
  sync(): Promise<void> {
    if (!this.inFlight) return (this.inFlight = this.ping());
    // The query in flight may have been sent before this call: wait for the one after it.
    return (this.next ??= this.inFlight.then(() => {
      this.inFlight = this.next;
      this.next = undefined;
      return this.ping();
    }));
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    const connection = this.connection;
    if (!connection) return;
    this.drop(connection);
    await connection.client.end().catch(() => undefined);
  }

  private async ping(): Promise<void> {
    const connection = this.connection;
    try {
      if (connection) {
        await connection.client.query('SELECT 1');
        this.lastAliveAt = Date.now();
      }
    } catch (err) {
      if (connection) this.lost(connection, err as Error);
    } finally {
      if (this.next === undefined) this.inFlight = undefined;
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: LISTEN_APPLICATION_NAME,
      keepAlive: true,
      // A heartbeat on a dead socket must fail (and reconnect), not hang.
      query_timeout: LIVENESS_MS,
      connectionTimeoutMillis: LIVENESS_MS,
    });
    const connection: Connection = { client, listened: new Set(), pending: new Set(), ready: false };
    this.connection = connection;
    client.on('notification', (msg) => {
      const payload = msg.payload ?? '';
      this.subscribers.get(msg.channel)?.forEach((s) => s.onNotification(payload));
    });
    client.on('error', (err) => this.lost(connection, err));
    client.on('end', () => this.lost(connection));
    try {
      await client.connect();
    } catch (err) {
      this.lost(connection, err as Error);
      return;
    }
    if (this.connection !== connection || this.closed) return;
    connection.ready = true;
    this.lastAliveAt = Date.now();
    this.reconnectDelay = RECONNECT_FIRST_MS;
    connection.heartbeat = setInterval(() => {
      client.query('SELECT 1').then(
        () => (this.lastAliveAt = Date.now()),
        (err: Error) => this.lost(connection, err),
      );
    }, HEARTBEAT_MS).unref();
    await this.listenAll(connection);
  }

  /** LISTENs on every subscribed channel the connection does not listen on yet (a Map's iteration sees keys added meanwhile). */
  private async listenAll(connection: Connection): Promise<void> {
    for (const channel of this.subscribers.keys()) {
      if (connection.listened.has(channel) || connection.pending.has(channel)) continue;
      connection.pending.add(channel);
      try {
        await connection.client.query(`LISTEN ${channel}`);
      } catch (err) {
        this.lost(connection, err as Error);
        return;
      }
      connection.pending.delete(channel);
      if (this.connection !== connection) return;
      this.lastAliveAt = Date.now();
      connection.listened.add(channel);
      this.subscribers.get(channel)?.forEach((s) => s.onListening?.());
    }
  }

  private lost(connection: Connection, err?: Error): void {
    if (this.connection !== connection) return;
    this.drop(connection);
    connection.client.end().catch(() => undefined);
    if (this.closed) return;
    const channels = [...this.subscribers.keys()].join(', ');
    this.logger.warn(`Not listening on ${channels} (${err?.message ?? 'connection ended'}); redialling, readers go to the database meanwhile`);
    this.reconnect = setTimeout(() => void this.connect(), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  /** Forgets the connection and tells every subscriber it may miss notifications from now on. */
  private drop(connection: Connection): void {
    this.connection = undefined;
    clearInterval(connection.heartbeat);
    const listened = [...connection.listened];
    connection.listened.clear();
    for (const channel of listened) this.subscribers.get(channel)?.forEach((s) => s.onLost?.());
  }
}
