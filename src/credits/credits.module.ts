import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CreditLedgerRepository } from './credit-ledger.repository';
import { CreditsService } from './credits.service';

@Module({ imports: [AccountsModule], providers: [CreditLedgerRepository, CreditsService], exports: [CreditLedgerRepository, CreditsService] })
export class CreditsModule {}
