import { Injectable } from '@nestjs/common';
import type { Account as AccountView } from '../../generated/types';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { limitsOf } from '../config/plans';
import type { Account } from './account.entity';
import { AccountsRepository } from './accounts.repository';
import { newWebhookSecret } from './webhook-secrets';

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async create(plan: Account['plan'], credits: number): Promise<Account> {
    return this.accounts.create({
      id: newId('acc'),
      plan,
      creditBalance: credits,
      webhookSecret: newWebhookSecret(),
    });
  }

  async get(id: string): Promise<Account> {
    const account = await this.accounts.findById(id);
    if (!account) throw DomainError.notFound('Account');
    return account;
  }

  /** A new webhook secret; the replaced one keeps signing beside it for 24 h (see signingSecrets). */
  async rotateWebhookSecret(id: string): Promise<Account> {
    if (!(await this.accounts.rotateWebhookSecret(id, newWebhookSecret(), this.clock.now()))) throw DomainError.notFound('Account');
    return this.get(id);
  }
}

/** The API shape of an account; the webhook secret only when the caller may read it. */
export function toAccountView(account: Account, options: { withSecret?: boolean } = {}): Omit<AccountView, 'plan'> & { plan: Account['plan'] } {
  const limits = limitsOf(account.plan);
  return {
    id: account.id,
    plan: account.plan,
    creditBalance: account.creditBalance,
    limits: {
      requestsPerSecond: limits.requestsPerSecond,
      inFlightJobs: limits.inFlightJobs,
      maxFileSizeMB: limits.maxFileSizeMB,
      jobWebhooks: limits.jobWebhooks,
    },
    ...(options.withSecret ? { webhookSecret: account.webhookSecret } : {}),
    createdAt: account.createdAt.toISOString(),
  };
}
