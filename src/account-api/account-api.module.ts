import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CreditsModule } from '../credits/credits.module';
import { AccountCredits } from './account-credits.service';
import { AccountController } from './account.controller';

/** /v1/account: the caller's account, its webhook secret and its credit ledger. */
@Module({
  imports: [AccountsModule, CreditsModule],
  controllers: [AccountController],
  providers: [AccountCredits],
})
export class AccountApiModule {}
