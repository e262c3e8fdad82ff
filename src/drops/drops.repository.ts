import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { CursorPosition } from '../common/cursor';
import { type Db, firstRow, rows } from '../database/sql';
import type { Drop } from './drop.entity';

const COLUMNS = `id, account_id AS "accountId", slug, name, description, emoji, accent_color AS "accentColor",
  is_active AS "isActive", allowed_kinds AS "allowedKinds", max_file_size_mb AS "maxFileSizeMB",
  require_sender_email AS "requireSenderEmail", require_message AS "requireMessage", auto_convert_to AS "autoConvertTo",
  auto_compress AS "autoCompress", process_with AS "processWith", webhook_url AS "webhookUrl", expires_at AS "expiresAt",
  password_hash AS "passwordHash", max_submissions AS "maxSubmissions", max_total_mb AS "maxTotalMB",
  allowed_extensions AS "allowedExtensions", accept_late_until AS "acceptLateUntil",
  submission_count AS "submissionCount", total_bytes::float8 AS "totalBytes", created_at AS "createdAt"`;

/** The columns an owner may change, by property. */
const EDITABLE = {
  name: 'name',
  description: 'description',
  emoji: 'emoji',
  accentColor: 'accent_color',
  isActive: 'is_active',
  allowedKinds: 'allowed_kinds',
  maxFileSizeMB: 'max_file_size_mb',
  requireSenderEmail: 'require_sender_email',
  requireMessage: 'require_message',
  autoConvertTo: 'auto_convert_to',
  autoCompress: 'auto_compress',
  processWith: 'process_with',
  webhookUrl: 'webhook_url',
  expiresAt: 'expires_at',
  passwordHash: 'password_hash',
  maxSubmissions: 'max_submissions',
  maxTotalMB: 'max_total_mb',
  allowedExtensions: 'allowed_extensions',
  acceptLateUntil: 'accept_late_until',
} as const satisfies Partial<Record<keyof Drop, string>>;

const FIXED = { id: 'id', accountId: 'account_id', slug: 'slug', submissionCount: 'submission_count', totalBytes: 'total_bytes' } as const;

function columnOf(property: string): string {
  return (EDITABLE as Record<string, string>)[property] ?? (FIXED as Record<string, string>)[property];
}

/**
 * The drops table, counters included. The reads by slug are the hot ones: plain SQL straight on
 * TypeORM's pg pool (the same connections), without its query runner in between (bench/RESULTS.md).
 */
@Injectable()
export class DropsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private get pool(): Pool {
    return (this.db.driver as PostgresDriver).master as Pool;
  }

  private async readOne(text: string, values: unknown[]): Promise<Drop | undefined> {
    return (await this.pool.query<Drop>({ text, values })).rows[0];
  }

  /**
   * False when the slug is taken; other errors are thrown. `ON CONFLICT (slug) DO NOTHING` rather
   * than catching the violation, so the transaction it runs in stays usable for the next attempt.
   */
  async insert(drop: Omit<Drop, 'createdAt'>, db: Db = this.db): Promise<boolean> {
    const columns = Object.keys(EDITABLE).concat('id', 'accountId', 'slug', 'submissionCount', 'totalBytes') as (keyof typeof drop)[];
    const inserted = await rows(
      db,
      `INSERT INTO drops (${columns.map(columnOf).join(', ')}) VALUES (${columns.map((_c, i) => `$${i + 1}`).join(', ')}) ON CONFLICT (slug) DO NOTHING RETURNING id`,
      columns.map((c) => drop[c]),
    );
    return inserted.length > 0;
  }

  findById(id: string): Promise<Drop | undefined> {
    return this.readOne(`SELECT ${COLUMNS} FROM drops WHERE id = $1`, [id]);
  }

  /** By public slug, whoever owns it (public page and intake). */
  findBySlug(slug: string): Promise<Drop | undefined> {
    return this.readOne(`SELECT ${COLUMNS} FROM drops WHERE slug = $1`, [slug]);
  }

  /** The owner's drop by slug; another account's drop is not found. */
  findBySlugForAccount(slug: string, accountId: string): Promise<Drop | undefined> {
    return this.readOne(`SELECT ${COLUMNS} FROM drops WHERE slug = $1 AND account_id = $2`, [slug, accountId]);
  }

  listForAccount(accountId: string, take: number, after?: CursorPosition): Promise<Drop[]> {
    return rows<Drop>(
      this.db,
      `SELECT ${COLUMNS} FROM drops WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [accountId, after?.createdAt ?? null, after?.id ?? null, take],
    );
  }

  async update(tx: Db, id: string, changes: Partial<Pick<Drop, keyof typeof EDITABLE>>): Promise<void> {
    const set = (Object.keys(changes) as (keyof typeof EDITABLE)[]).filter((c) => changes[c] !== undefined);
    if (set.length > 0) {
      await tx.query(`UPDATE drops SET ${set.map((c, i) => `${EDITABLE[c]} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...set.map((c) => changes[c])]);
    }
  }

  /**
   * Counts an arriving submission: 'added', 'gone' when the drop was deleted meanwhile, or 'full'
   * when it would take the drop past `maxSubmissions` or `maxTotalMB`. The limits are judged in the
   * same UPDATE that holds the drop row lock until the transaction ends, so concurrent senders
   * queue on it and never overshoot together.
   */
  async addSubmission(tx: Db, id: string, bytes: number): Promise<'added' | 'gone' | 'full'> {
    if (!(await firstRow(tx, 'SELECT id FROM drops WHERE id = $1 FOR UPDATE', [id]))) return 'gone';
    const added = await firstRow(
      tx,
      `UPDATE drops SET submission_count = submission_count + 1, total_bytes = total_bytes + $2
       WHERE id = $1 AND (max_submissions IS NULL OR submission_count < max_submissions)
         AND (max_total_mb IS NULL OR total_bytes + $2 <= max_total_mb::bigint * 1048576)
       RETURNING id`,
      [id, bytes],
    );
    return added ? 'added' : 'full';
  }

  async removeSubmission(tx: Db, id: string, bytes: number): Promise<void> {
    await tx.query('UPDATE drops SET submission_count = submission_count - 1, total_bytes = total_bytes - $2 WHERE id = $1', [id, bytes]);
  }

  /** Taken first when deleting a drop, so intakes in flight queue up behind the delete. */
  async lock(tx: Db, id: string): Promise<void> {
    await tx.query('SELECT id FROM drops WHERE id = $1 FOR UPDATE', [id]);
  }

  /**
   * Deletes the drop and its submissions, returning the submissions' stored files: original,
   * processed, and the template outputs (submission_outputs, removed by the cascade). The drop owns
   * its submissions' rows here (not SubmissionsRepository) so that drops need not know the
   * submissions module, which builds on drops. The submissions are locked before their outputs are
   * read, so a template run recording its files meanwhile either committed first (its files are
   * read here) or finds the submission gone and deletes them itself.
   */
  async deleteWithSubmissions(tx: Db, id: string): Promise<{ storageKey: string; processedKey: string | null }[]> {
    await tx.query('SELECT count(*) FROM (SELECT 1 FROM submissions WHERE drop_id = $1 FOR UPDATE) locked', [id]);
    const outputs = await rows<{ storageKey: string }>(
      tx,
      'SELECT o.storage_key AS "storageKey" FROM submission_outputs o JOIN submissions s ON s.id = o.submission_id WHERE s.drop_id = $1',
      [id],
    );
    const files = await rows<{ storageKey: string; processedKey: string | null }>(
      tx,
      'DELETE FROM submissions WHERE drop_id = $1 RETURNING storage_key AS "storageKey", processed_key AS "processedKey"',
      [id],
    );
    await tx.query('DELETE FROM drops WHERE id = $1', [id]);
    return [...files, ...outputs.map((o) => ({ storageKey: o.storageKey, processedKey: null }))];
  }
}
