import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';

export interface Charge {
  accountId: string;
  apiKeyId: string | null;
  jobId: string;
  cost: number;
}

/**
 * Credits move only here, each movement with a ledger row in the same transaction.
 * The balance check and the debit are one UPDATE, so concurrent jobs never overdraw.
 */
@Injectable()
export class CreditsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Debits inside the caller's transaction; throws 402 `insufficient_credits`. */
  async debit(tx: EntityManager, charge: Charge): Promise<number> {
    const [rows] = await tx.query(
      'UPDATE accounts SET credit_balance = credit_balance - $2 WHERE id = $1 AND credit_balance >= $2 RETURNING credit_balance',
      [charge.accountId, charge.cost],
    );
    if (rows.length === 0) {
      const [{ credit_balance: balance }] = await tx.query('SELECT credit_balance FROM accounts WHERE id = $1', [charge.accountId]);
      throw new ApiError(
        HttpStatus.PAYMENT_REQUIRED,
        'insufficient_credits',
        `This job costs ${charge.cost} credit${charge.cost === 1 ? '' : 's'}; the balance is ${Number(balance)}.`,
      );
    }
    await tx.query('INSERT INTO credit_ledger (account_id, api_key_id, job_id, delta, reason) VALUES ($1, $2, $3, $4, $5)', [
      charge.accountId,
      charge.apiKeyId,
      charge.jobId,
      -charge.cost,
      'job_debit',
    ]);
    return Number(rows[0].credit_balance);
  }

  /**
   * Gives a job's cost back once, whatever calls it how often (worker failure, cancel, enqueue
   * failure): the jobs.refunded flag flips in the same transaction as the credit.
   */
  async refund(jobId: string, tx?: EntityManager): Promise<boolean> {
    const run = async (m: EntityManager) => {
      const [rows] = await m.query(
        'UPDATE jobs SET refunded = true WHERE id = $1 AND refunded = false RETURNING account_id, api_key_id, cost',
        [jobId],
      );
      if (rows.length === 0) return false;
      const { account_id: accountId, api_key_id: apiKeyId, cost } = rows[0];
      await m.query('UPDATE accounts SET credit_balance = credit_balance + $2 WHERE id = $1', [accountId, cost]);
      await m.query('INSERT INTO credit_ledger (account_id, api_key_id, job_id, delta, reason) VALUES ($1, $2, $3, $4, $5)', [
        accountId,
        apiKeyId,
        jobId,
        cost,
        'job_refund',
      ]);
      return true;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  /** Net credits a key spent since `since` (debits less refunds), for spend caps. */
  async spentSince(tx: EntityManager, apiKeyId: string, since: Date): Promise<number> {
    const [{ spent }] = await tx.query(
      `SELECT COALESCE(-SUM(delta), 0) AS spent FROM credit_ledger WHERE api_key_id = $1 AND created_at >= $2`,
      [apiKeyId, since],
    );
    return Number(spent);
  }
}
