import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CursorPosition } from '../common/cursor';
import { firstRow, rows } from '../database/sql';
import type { WebhookAttemptRecord, WebhookDelivery } from './webhook-delivery.entity';

const COLUMNS = `id, account_id AS "accountId", event_type AS "eventType", url, message_id AS "messageId", body, status,
  attempts, next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"`;

/** The webhook_deliveries table: every event, its attempts and its next planned attempt. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records an event's delivery. With an `eventKey` (one event, however often its cause is redelivered)
   * a second insert records nothing and answers undefined.
   */
  insert(d: Omit<WebhookDelivery, 'createdAt' | 'attempts' | 'status'>, eventKey: string | null = null): Promise<WebhookDelivery | undefined> {
    return firstRow<WebhookDelivery>(
      this.db,
      `INSERT INTO webhook_deliveries (id, account_id, event_type, url, message_id, body, status, attempts, next_attempt_at, event_key)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', '[]', $7, $8) ON CONFLICT (event_key) DO NOTHING RETURNING ${COLUMNS}`,
      [d.id, d.accountId, d.eventType, d.url, d.messageId, d.body, d.nextAttemptAt, eventKey],
    );
  }

  findById(id: string): Promise<WebhookDelivery | undefined> {
    return firstRow<WebhookDelivery>(this.db, `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]);
  }

  findForAccount(id: string, accountId: string): Promise<WebhookDelivery | undefined> {
    return firstRow<WebhookDelivery>(this.db, `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  listForAccount(accountId: string, take: number, after: CursorPosition | undefined, status?: WebhookDelivery['status']): Promise<WebhookDelivery[]> {
    return rows<WebhookDelivery>(
      this.db,
      `SELECT ${COLUMNS} FROM webhook_deliveries
       WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text)) AND ($4::text IS NULL OR status = $4)
       ORDER BY created_at DESC, id DESC LIMIT $5`,
      [accountId, after?.createdAt ?? null, after?.id ?? null, status ?? null, take],
    );
  }

  /**
   * Appends one attempt in one statement and returns how many there are now. Writing back
   * `[...attempts, attempt]` lost records when two sends of one delivery overlapped (replays while
   * a retry is pending: each read the same list and the last write won).
   */
  async appendAttempt(id: string, attempt: WebhookAttemptRecord): Promise<number | undefined> {
    const row = await firstRow<{ count: number }>(
      this.db,
      'UPDATE webhook_deliveries SET attempts = attempts || $2::jsonb WHERE id = $1 RETURNING jsonb_array_length(attempts) AS count',
      [id, JSON.stringify([attempt])],
    );
    return row?.count;
  }

  async succeed(id: string): Promise<void> {
    await this.db.query("UPDATE webhook_deliveries SET status = 'succeeded', next_attempt_at = NULL WHERE id = $1", [id]);
  }

  /** Only a still-pending delivery fails: an overlapping send may have settled it. */
  async fail(id: string): Promise<void> {
    await this.db.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1 AND status = 'pending'", [id]);
  }

  /** Plans the next attempt of a still-pending delivery; false when it was settled meanwhile. */
  async planAttempt(id: string, at: Date): Promise<boolean> {
    return Boolean(await firstRow(this.db, "UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id = $1 AND status = 'pending' RETURNING id", [id, at]));
  }

  /** Back to pending whatever its state (a replay). */
  async reopen(id: string, at: Date): Promise<WebhookDelivery | undefined> {
    await this.db.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $2 WHERE id = $1", [id, at]);
    return this.findById(id);
  }

  /** Pending deliveries whose planned attempt is older than `before` (their queue entry was lost). */
  findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]> {
    return rows<WebhookDelivery>(this.db, `SELECT ${COLUMNS} FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < $1 LIMIT $2`, [before, limit]);
  }

  /** Deletes up to `limit` settled deliveries created before `before`: the retention purge's batch. */
  async deleteSettled(before: Date, limit: number): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
         SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
      [before, limit],
    );
    return result[1] ?? 0;
  }
}
