import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AccountCredits } from '../account-api/account-credits.service';
import { ApiKeysRepository } from '../auth/api-keys.repository';
import { ApiKeysService } from '../auth/api-keys.service';
import { CreditLedgerRepository } from '../credits/credit-ledger.repository';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { LoggingModule } from '../logging/logging.module';
import { logProcessWarnings } from '../logging/process-warnings';
import { createRootLogger, loadLogSettings } from '../logging/root-logger';

/** The CLI's stdout is its JSON answer: its log lines (same shape as the server's) go to stderr. */
export const cliLogger = createRootLogger(loadLogSettings(process.env, 'warn'), 2);
logProcessWarnings(cliLogger);

/**
 * The CLI's answer on failure, always printed (whatever LOG_LEVEL says): a plain line for a person
 * at a terminal, else a log line in the server's shape, for the script or collector reading it
 * (LOG_FORMAT, when set, decides).
 */
export const cliErrors: { error(message: string): void } =
  process.stderr.isTTY && !process.env.LOG_FORMAT
    ? { error: (message) => process.stderr.write(`${message}\n`) }
    : createRootLogger({ ...loadLogSettings(process.env), LOG_LEVEL: 'error' }, 2);

/** Just what the admin commands need: no HTTP, no Redis, no guards. */
@Module({
  imports: [ConfigModule.forRoot(), LoggingModule.forRoot(cliLogger), DatabaseModule, AccountsModule],
  providers: [ApiKeysRepository, ApiKeysService, CreditLedgerRepository, AccountCredits],
})
export class AdminModule {}
