import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { type Db, firstRow } from '../database/sql';
import { Account } from './account.entity';

/** The accounts table: plans and credit balances. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  async create(account: Pick<Account, 'id' | 'plan' | 'creditBalance' | 'webhookSecret'>): Promise<Account> {
    await this.accounts.insert(this.accounts.create(account));
    return this.accounts.findOneByOrFail({ id: account.id });
  }

  async findById(id: string): Promise<Account | undefined> {
    return (await this.accounts.findOneBy({ id })) ?? undefined;
  }

  /** Adds credits in one statement, so concurrent debits are never lost; false when there is no such account. */
  async grant(id: string, amount: number, tx: Db = this.accounts.manager): Promise<boolean> {
    return Boolean(await firstRow(tx, 'UPDATE accounts SET credit_balance = credit_balance + $2 WHERE id = $1 RETURNING id', [id, amount]));
  }

  /** One statement: the current secret becomes the previous one, whatever rotation raced it. */
  async rotateWebhookSecret(id: string, secret: string, now: Date): Promise<boolean> {
    return Boolean(
      await firstRow(
        this.accounts.manager,
        'UPDATE accounts SET previous_webhook_secret = webhook_secret, webhook_secret = $2, webhook_secret_rotated_at = $3 WHERE id = $1 RETURNING id',
        [id, secret, now],
      ),
    );
  }

  /**
   * Locks the account row for the rest of the transaction and returns its balance and plan:
   * an account's admissions queue up here, so the checks that follow see exact numbers. NO KEY:
   * rows that merely reference the account (keys, drops, deliveries) are not held up by it.
   */
  lockForAdmission(tx: Db, id: string): Promise<{ balance: number; plan: string } | undefined> {
    return firstRow(tx, 'SELECT credit_balance::float8 AS balance, plan FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [id]);
  }

  async addCredits(tx: Db, id: string, delta: number): Promise<void> {
    await tx.query('UPDATE accounts SET credit_balance = credit_balance + $2 WHERE id = $1', [id, delta]);
  }
}
