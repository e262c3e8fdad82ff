import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { LedgerEntry as LedgerEntryView } from '../../generated/types';
import { decodeCursor, paginate, SERIAL_ID } from '../common/cursor';
import { type Db, firstRow, rows } from '../database/sql';

export type LedgerReason = 'job_debit' | 'job_refund' | 'grant';

export interface LedgerEntry {
  accountId: string;
  apiKeyId: string | null;
  /** null for a grant. */
  jobId: string | null;
  delta: number;
  reason: LedgerReason;
  /** A pipeline step's refund: the step's name. */
  step?: string | null;
  /** The Clock's time, so spend-cap windows follow a moved clock in tests. */
  at: Date;
}

/** The credit_ledger table: one row per credit movement, written in the movement's transaction. */
@Injectable()
export class CreditLedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async append(tx: Db, e: LedgerEntry): Promise<void> {
    const entry = 'INSERT INTO credit_ledger (account_id, api_key_id, job_id, delta, reason, created_at, step) VALUES ($1, $2, $3, $4, $5, $6, $7)';
    const params = [e.accountId, e.apiKeyId, e.jobId, e.delta, e.reason, e.at, e.step ?? null];
    if (e.reason !== 'job_debit' || !e.apiKeyId) {
      await tx.query(entry, params);
      return;
    }
    // A key's debits per UTC day, kept with the debit: what the spend caps read. One statement (a
    // data-modifying CTE runs whether or not it is read), so a job's admission makes one round trip less.
    await tx.query(
      `WITH entry AS (${entry})
       INSERT INTO spend_counters (api_key_id, day, spent) VALUES ($2, ($6::timestamptz AT TIME ZONE 'UTC')::date, $8)
       ON CONFLICT (api_key_id, day) DO UPDATE SET spent = spend_counters.spent + EXCLUDED.spent`,
      [...params, -e.delta],
    );
  }

  /**
   * Credits a key was debited since each of its cap windows' starts (UTC day and month starts), in
   * one statement over at most 31 daily counters — not a month of ledger rows under the account
   * lock. Debits only (decision §2): a refund gives the credits back but does not reopen a cap.
   */
  async spentSince(tx: Db, apiKeyId: string, dayStart: Date, monthStart: Date): Promise<{ day: number; month: number }> {
    const row = await firstRow<{ day: string; month: string }>(
      tx,
      `SELECT COALESCE(SUM(spent) FILTER (WHERE day >= ($2::timestamptz AT TIME ZONE 'UTC')::date), 0) AS day,
              COALESCE(SUM(spent) FILTER (WHERE day >= ($3::timestamptz AT TIME ZONE 'UTC')::date), 0) AS month
       FROM spend_counters WHERE api_key_id = $1 AND day >= (LEAST($2::timestamptz, $3::timestamptz) AT TIME ZONE 'UTC')::date`,
      [apiKeyId, dayStart, monthStart],
    );
    return { day: Number(row!.day), month: Number(row!.month) };
  }

  /** An account's movements, newest first, keyset-paged on (created_at, id). */
  async page(accountId: string, limit: number, cursor?: string): Promise<{ entries: LedgerEntryView[]; nextCursor: string | null }> {
    const after = decodeCursor(cursor, SERIAL_ID);
    const found = await rows<{ id: string; delta: number; reason: LedgerReason; job_id: string | null; step: string | null; created_at: Date }>(
      this.db.manager,
      // Ordered by the bigint column, not the text it is read as: `ORDER BY id` named the output
      // column `id::text`, so '9' sorted after '10' and a page boundary could skip a row.
      `SELECT l.id::text AS id, l.delta, l.reason, l.job_id, l.step, l.created_at FROM credit_ledger l
        WHERE l.account_id = $1 ${after ? 'AND (l.created_at, l.id) < ($3, $4::bigint)' : ''}
        ORDER BY l.created_at DESC, l.id DESC LIMIT $2`,
      after ? [accountId, limit + 1, after.createdAt, after.id] : [accountId, limit + 1],
    );
    const page = paginate(
      found.map((r) => ({ ...r, createdAt: r.created_at })),
      limit,
    );
    return {
      entries: page.items.map((r) => ({
        id: r.id,
        amount: r.delta,
        reason: r.reason,
        jobId: r.job_id,
        ...(r.step ? { step: r.step } : {}),
        createdAt: r.created_at.toISOString(),
      })),
      nextCursor: page.nextCursor,
    };
  }
}
