import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiError } from '../common/api-error';
import { newId, randomString } from '../common/ids';
import { Account } from './account.entity';

@Injectable()
export class AccountsService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  async create(plan: Account['plan'], credits: number): Promise<Account> {
    const account = this.accounts.create({
      id: newId('acc'),
      plan,
      creditBalance: credits,
      webhookSecret: `whsec_${Buffer.from(randomString(32)).toString('base64')}`,
    });
    await this.accounts.insert(account);
    return this.get(account.id);
  }

  async get(id: string): Promise<Account> {
    const account = await this.accounts.findOneBy({ id });
    if (!account) throw ApiError.notFound('Account');
    return account;
  }

  /** Adds credits in one statement, so concurrent debits are never lost. */
  async grant(id: string, amount: number): Promise<Account> {
    const result = await this.accounts.increment({ id }, 'creditBalance', amount);
    if (!result.affected) throw ApiError.notFound('Account');
    return this.get(id);
  }
}

export function toAccountView(account: Account) {
  return {
    id: account.id,
    plan: account.plan,
    creditBalance: account.creditBalance,
    createdAt: account.createdAt.toISOString(),
  };
}
