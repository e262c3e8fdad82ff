import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CursorPosition } from '../common/cursor';
import { newId } from '../common/ids';
import { type Db, rows } from '../database/sql';

export type DropEventType = 'drop.created' | 'drop.updated' | 'submission.created' | 'submission.refused' | 'submission.downloaded' | 'submission.deleted';

/** Who acted: a sender (`public`) or an API key, with the request's address and User-Agent. */
export interface DropEventActor {
  kind: 'public' | 'key';
  keyId?: string;
  ip: string;
  userAgent: string | null;
}

export interface DropEvent {
  /** The event's `at` (named for the keyset cursor). */
  createdAt: Date;
  id: string;
  type: DropEventType;
  actor: DropEventActor;
  submissionId: string | null;
  detail: Record<string, unknown>;
}

export interface DropEventFilters {
  type?: DropEventType;
  since?: Date;
  until?: Date;
}

const USER_AGENT_MAX = 500;

/** The actor of a request: `keyId` set for the owner's API, absent for a sender. Plain values: the core knows no HTTP. */
export function requestActor(ip: string, userAgent: string | string[] | undefined, keyId?: string): DropEventActor {
  const agent = Array.isArray(userAgent) ? userAgent[0] : userAgent;
  return keyId ? { kind: 'key', keyId, ip, userAgent: agent?.slice(0, USER_AGENT_MAX) ?? null } : { kind: 'public', ip, userAgent: agent?.slice(0, USER_AGENT_MAX) ?? null };
}

const COLUMNS = `id, at AS "createdAt", type, submission_id AS "submissionId", detail,
  json_build_object('kind', actor_kind, 'keyId', key_id, 'ip', ip, 'userAgent', user_agent) AS actor`;

/**
 * The drop_events table, the audit log's one writer. `record` takes the transaction of the change
 * it records, so an event commits or rolls back with it: one INSERT, no extra round trip. `at` is
 * the clock at the INSERT (not the transaction's start), so the log's order is the order of the writes,
 * cut to the millisecond the API shows: a cursor or a `since`/`until` copied from an `at` is exact.
 */
@Injectable()
export class DropEventsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** `tx`: the transaction of the change recorded; undefined for an event that changes nothing else (a download). */
  async record(
    tx: Db | undefined,
    dropId: string,
    type: DropEventType,
    actor: DropEventActor,
    submissionId: string | null = null,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await (tx ?? this.db).query(
      `INSERT INTO drop_events (id, drop_id, type, at, actor_kind, key_id, ip, user_agent, submission_id, detail)
       VALUES ($1, $2, $3, date_trunc('milliseconds', clock_timestamp()), $4, $5, $6, $7, $8, $9)`,
      [newId('evt'), dropId, type, actor.kind, actor.keyId ?? null, actor.ip, actor.userAgent, submissionId, detail],
    );
  }

  /** A refusal by the drop's public slug: one statement, which records nothing when no such drop exists. */
  async recordRefusal(slug: string, actor: DropEventActor, code: string): Promise<void> {
    await this.db.query(
      `INSERT INTO drop_events (id, drop_id, type, at, actor_kind, key_id, ip, user_agent, detail)
       SELECT $1, id, 'submission.refused', date_trunc('milliseconds', clock_timestamp()), $3, $4, $5, $6, $7 FROM drops WHERE slug = $2`,
      [newId('evt'), slug, actor.kind, actor.keyId ?? null, actor.ip, actor.userAgent, { code }],
    );
  }

  /** Newest first, `take` rows after the cursor. */
  list(dropId: string, take: number, after: CursorPosition | undefined, filters: DropEventFilters): Promise<DropEvent[]> {
    return rows<DropEvent>(
      this.db,
      `SELECT ${COLUMNS} FROM drop_events
       WHERE drop_id = $1 AND ($2::timestamptz IS NULL OR (at, id) < ($2::timestamptz, $3::text))
         AND ($4::text IS NULL OR type = $4) AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at <= $6)
       ORDER BY at DESC, id DESC LIMIT $7`,
      [dropId, after?.createdAt ?? null, after?.id ?? null, filters.type ?? null, filters.since ?? null, filters.until ?? null, take],
    );
  }
}
