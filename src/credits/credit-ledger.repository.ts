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
  /** The Clock's time, so spend-cap windows follow a moved clock in tests. */
  at: Date;
}

/** The credit_ledger table: one row per credit movement, written in the movement's transaction. */
@Injectable()
export class CreditLedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async append(tx: Db, e: LedgerEntry): Promise<void> {
    await tx.query('INSERT INTO credit_ledger (account_id, api_key_id, job_id, delta, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      e.accountId,
      e.apiKeyId,
      e.jobId,
      e.delta,
      e.reason,
      e.at,
    ]);
  }

  /**
   * Credits a key was debited since each of its cap windows' starts, in one statement. Debits only
   * (decision §2): a refund gives the credits back but does not reopen a cap.
   */
  async spentSince(tx: Db, apiKeyId: string, dayStart: Date, monthStart: Date): Promise<{ day: number; month: number }> {
    const row = await firstRow<{ day: string; month: string }>(
      tx,
      `SELECT COALESCE(-SUM(delta) FILTER (WHERE created_at >= $2), 0) AS day, COALESCE(-SUM(delta) FILTER (WHERE created_at >= $3), 0) AS month
       FROM credit_ledger WHERE api_key_id = $1 AND reason = 'job_debit' AND created_at >= LEAST($2::timestamptz, $3::timestamptz)`,
      [apiKeyId, dayStart, monthStart],
    );
    return { day: Number(row!.day), month: Number(row!.month) };
  }

  /** An account's movements, newest first, keyset-paged on (created_at, id). */
  async page(accountId: string, limit: number, cursor?: string): Promise<{ entries: LedgerEntryView[]; nextCursor: string | null }> {
    const after = decodeCursor(cursor, SERIAL_ID);
    const found = await rows<{ id: string; delta: number; reason: LedgerReason; job_id: string | null; created_at: Date }>(
      this.db.manager,
      `SELECT id::text, delta, reason, job_id, created_at FROM credit_ledger
        WHERE account_id = $1 ${after ? 'AND (created_at, id) < ($3, $4::bigint)' : ''}
        ORDER BY created_at DESC, id DESC LIMIT $2`,
      after ? [accountId, limit + 1, after.createdAt, after.id] : [accountId, limit + 1],
    );
    const page = paginate(
      found.map((r) => ({ ...r, createdAt: r.created_at })),
      limit,
    );
    return {
      entries: page.items.map((r) => ({ id: r.id, amount: r.delta, reason: r.reason, jobId: r.job_id, createdAt: r.created_at.toISOString() })),
      nextCursor: page.nextCursor,
    };
  }
}
