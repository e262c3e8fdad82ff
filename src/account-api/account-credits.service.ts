import { Injectable } from '@nestjs/common';
import type { Account } from '../accounts/account.entity';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { CreditLedgerRepository } from '../credits/credit-ledger.repository';
import { Transactions } from '../database/transactions';

/**
 * An account's credits as the API and the admin CLI see them: grants and the ledger. Here, above
 * both `accounts` and `credits`, because the credit ledger builds on accounts (never the reverse).
 */
@Injectable()
export class AccountCredits {
  constructor(
    private readonly accounts: AccountsService,
    private readonly accountRows: AccountsRepository,
    private readonly creditLedger: CreditLedgerRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** Adds credits in one statement, so concurrent debits are never lost, with its ledger entry. */
  async grant(id: string, amount: number): Promise<Account> {
    const granted = await this.transactions.run(async (tx) => {
      if (!(await this.accountRows.grant(id, amount, tx))) return false;
      await this.creditLedger.append(tx, { accountId: id, apiKeyId: null, jobId: null, delta: amount, reason: 'grant', at: this.clock.now() });
      return true;
    });
    if (!granted) throw DomainError.notFound('Account');
    return this.accounts.get(id);
  }

  ledger(accountId: string, limit: number, cursor?: string) {
    return this.creditLedger.page(accountId, limit, cursor);
  }
}
