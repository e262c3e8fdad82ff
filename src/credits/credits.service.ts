import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository';
import { Clock } from '../common/clock';
import type { Db } from '../database/sql';
import { Transactions } from '../database/transactions';
import { JobsRepository } from '../jobs/jobs.repository';
import { CreditLedgerRepository } from './credit-ledger.repository';

export interface Charge {
  accountId: string;
  apiKeyId: string | null;
  jobId: string;
  cost: number;
}

/**
 * Credits move only here, each movement with a ledger row in the same transaction. A debit
 * happens under the account row lock taken by admission (AccountsRepository.lockForAdmission),
 * after the balance was checked, so concurrent jobs never overdraw.
 */
@Injectable()
export class CreditsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ledger: CreditLedgerRepository,
    private readonly jobs: JobsRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** Inside the admission transaction, once the balance is known to cover the cost. */
  async debit(tx: Db, charge: Charge): Promise<void> {
    await this.accounts.addCredits(tx, charge.accountId, -charge.cost);
    await this.ledger.append(tx, { ...charge, delta: -charge.cost, reason: 'job_debit', at: this.clock.now() });
  }

  /**
   * Gives a job's cost back once, whatever calls it how often (worker failure, cancel, enqueue
   * failure): the jobs.refunded flag flips in the same transaction as the credit.
   */
  async refund(jobId: string, tx?: Db): Promise<boolean> {
    const run = async (t: Db) => {
      const job = await this.jobs.markRefunded(t, jobId);
      if (!job) return false;
      await this.accounts.addCredits(t, job.accountId, job.cost);
      await this.ledger.append(t, { accountId: job.accountId, apiKeyId: job.apiKeyId, jobId, delta: job.cost, reason: 'job_refund', at: this.clock.now() });
      return true;
    };
    return tx ? run(tx) : this.transactions.run(run);
  }

  /** Credits a key was debited in the UTC day and month of `now` (refunds not deducted), for spend caps. */
  spentThisDayAndMonth(tx: Db, apiKeyId: string, now: Date): Promise<{ day: number; month: number }> {
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return this.ledger.spentSince(tx, apiKeyId, dayStart, monthStart);
  }
}
