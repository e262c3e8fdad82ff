import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository';
import { Clock } from '../common/clock';
import type { Db } from '../database/sql';
import { CreditLedgerRepository } from './credit-ledger.repository';

export interface Charge {
  accountId: string;
  apiKeyId: string | null;
  jobId: string;
  cost: number;
  /** A pipeline step's refund: the step's name (the line's job is the pipeline). */
  step?: string | null;
}

/**
 * Credits move only here, each movement with a ledger row in the same transaction. A debit
 * happens under the account row lock taken by admission (AccountsRepository.lockForAdmission),
 * after the balance was checked, so concurrent jobs never overdraw. Credits know nothing of
 * jobs beyond a charge's id: that a job is refunded once is the jobs domain's rule (JobRefunds).
 */
@Injectable()
export class CreditsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly ledger: CreditLedgerRepository,
    private readonly clock: Clock,
  ) {}

  /** Inside the admission transaction, once the balance is known to cover the cost. */
  async debit(tx: Db, charge: Charge): Promise<void> {
    await this.accounts.addCredits(tx, charge.accountId, -charge.cost);
    await this.ledger.append(tx, { ...charge, delta: -charge.cost, reason: 'job_debit', at: this.clock.now() });
  }

  /** Gives a charge back, in the caller's transaction (the one that marks the job refunded). */
  async refund(tx: Db, charge: Charge): Promise<void> {
    await this.accounts.addCredits(tx, charge.accountId, charge.cost);
    await this.ledger.append(tx, { ...charge, delta: charge.cost, reason: 'job_refund', at: this.clock.now() });
  }

  /** Credits a key was debited in the UTC day and month of `now` (refunds not deducted), for spend caps. */
  spentThisDayAndMonth(tx: Db, apiKeyId: string, now: Date): Promise<{ day: number; month: number }> {
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return this.ledger.spentSince(tx, apiKeyId, dayStart, monthStart);
  }
}
