import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Ok, Query as QueryOf } from '../contract/operation-types';
import { AccountsService, toAccountView } from '../accounts/accounts.service';
import { AccountCredits } from './account-credits.service';

@Controller('v1/account')
export class AccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly credits: AccountCredits,
  ) {}

  /** The secret only for `webhooks:read`. */
  @Get()
  @Operation('getAccount')
  async get(@Auth() auth: AuthContext): Promise<Ok<'getAccount'>> {
    // auth.account may come from the key cache, which does not follow the credit balance (nor a rotation).
    const account = await this.accounts.get(auth.account.id);
    return { account: publicView(toAccountView(account, { withSecret: auth.key.scopes.includes('webhooks:read') })) };
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @Operation('rotateWebhookSecret')
  async rotate(@Auth() auth: AuthContext): Promise<Ok<'rotateWebhookSecret'>> {
    const account = await this.accounts.rotateWebhookSecret(auth.account.id);
    // The rotating key gets the new secret whatever its other scopes: it just replaced the old one.
    return { account: publicView(toAccountView(account, { withSecret: true })) };
  }

  @Get('ledger')
  @Operation('listLedgerEntries')
  ledger(@Auth() auth: AuthContext, @Query() q: QueryOf<'listLedgerEntries'>): Promise<Ok<'listLedgerEntries'>> {
    return this.credits.ledger(auth.account.id, q.limit ?? 100, q.cursor);
  }
}

/**
 * The contract knows the plans free, pro and max. `bench` (benchmarks and tests, never sold) is
 * max without the caps and shows as max over the API; the admin CLI shows it as it is.
 */
function publicView(account: ReturnType<typeof toAccountView>): Ok<'getAccount'>['account'] {
  return { ...account, plan: account.plan === 'bench' ? 'max' : account.plan };
}
