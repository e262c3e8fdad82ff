import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type Db, firstRow } from '../database/sql';
import type { Account } from './account.entity';

export const ACCOUNT_COLUMNS = `id, plan, credit_balance::float8 AS "creditBalance", webhook_secret AS "webhookSecret",
  previous_webhook_secret AS "previousWebhookSecret", webhook_secret_rotated_at AS "webhookSecretRotatedAt", created_at AS "createdAt"`;

/** The accounts table: plans and credit balances. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(account: Pick<Account, 'id' | 'plan' | 'creditBalance' | 'webhookSecret'>): Promise<Account> {
    return (await firstRow<Account>(this.db, `INSERT INTO accounts (id, plan, credit_balance, webhook_secret) VALUES ($1, $2, $3, $4) RETURNING ${ACCOUNT_COLUMNS}`, [
      account.id,
      account.plan,
      account.creditBalance,
      account.webhookSecret,
    ]))!;
  }

  findById(id: string): Promise<Account | undefined> {
    return firstRow<Account>(this.db, `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
  }

  /** Adds credits in one statement, so concurrent debits are never lost; false when there is no such account. */
  async grant(id: string, amount: number, tx: Db = this.db): Promise<boolean> {
    return Boolean(await firstRow(tx, 'UPDATE accounts SET credit_balance = credit_balance + $2 WHERE id = $1 RETURNING id', [id, amount]));
  }

  /** One statement: the current secret becomes the previous one, whatever rotation raced it. */
  async rotateWebhookSecret(id: string, secret: string, now: Date): Promise<boolean> {
    return Boolean(
      await firstRow(this.db, 'UPDATE accounts SET previous_webhook_secret = webhook_secret, webhook_secret = $2, webhook_secret_rotated_at = $3 WHERE id = $1 RETURNING id', [
        id,
        secret,
        now,
      ]),
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

  /** The same facts without the lock, for a quote that writes nothing and must not queue behind admissions. */
  readForAdmission(db: Db, id: string): Promise<{ balance: number; plan: string } | undefined> {
    return firstRow(db, 'SELECT credit_balance::float8 AS balance, plan FROM accounts WHERE id = $1', [id]);
  }

  async addCredits(tx: Db, id: string, delta: number): Promise<void> {
    await tx.query('UPDATE accounts SET credit_balance = credit_balance + $2 WHERE id = $1', [id, delta]);
  }
}
