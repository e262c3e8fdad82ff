import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Account } from '../accounts/account.entity';
import { AccountCredits } from '../account-api/account-credits.service';
import { AccountsService, toAccountView } from '../accounts/accounts.service';
import type { ApiKey } from '../auth/api-key.entity';
import { ApiKeysService } from '../auth/api-keys.service';
import { isValidCidr } from '../auth/ip-allowlist';
import { isScope, SCOPES } from '../auth/scopes';
import { loadConfig } from '../config/config';
import { readEnvFile } from '../config/env-file';
import { PLANS } from '../config/plans';
import { migrate } from '../database/migrations/migrate';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { AdminModule, cliErrors } from './admin.module';

/**
 * Admin CLI (docs/decisions.md §2): one JSON document on stdout, messages on stderr, exit 0 or 1.
 *   npm run -s admin -- account:create --plan pro --credits 1000
 */
type Services = { accounts: AccountsService; credits: AccountCredits; keys: ApiKeysService };

function keyView(key: ApiKey, token?: string) {
  return {
    id: key.id,
    ...(token ? { token } : {}),
    tokenPrefix: key.tokenPrefix,
    accountId: key.accountId,
    scopes: key.scopes,
    ipAllowlist: key.ipAllowlist,
    dailyCap: key.dailyCap,
    monthlyCap: key.monthlyCap,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}

function accountView(account: Account) {
  return toAccountView(account, { withSecret: true });
}

const nonNegativeInt = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
};
/** A missing account or key, named by the id the operator typed (the API's 404 message names neither). */
async function found<T>(what: 'account' | 'key', id: string, lookup: Promise<T | null>): Promise<T> {
  const value = await lookup.catch((err: unknown) => {
    if ((err as { code?: unknown }).code === 'not_found') return null;
    throw err;
  });
  if (value === null) throw new Error(`no ${what} with id ${id}${what === 'account' ? ' (account:create makes one)' : ''}`);
  return value;
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function buildProgram(run: (action: (s: Services) => Promise<unknown>) => Promise<void>): Command {
  const program = new Command('admin')
    .description('Dropline administration: accounts, API keys and credits')
    .exitOverride()
    // Commander's own refusals (unknown command, missing option) are error lines like ours; help is
    // the answer asked for, so it goes to stdout.
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => cliErrors.error(s.trim()) });

  program
    .command('account:create')
    .description('Create an account')
    .requiredOption('--plan <plan>', `one of ${PLANS.join(', ')}`)
    .option('--credits <n>', 'starting credit balance', nonNegativeInt, 0)
    .action((opts) =>
      run(async ({ accounts }) => {
        if (!(PLANS as readonly string[]).includes(opts.plan)) throw new InvalidArgumentError(`--plan must be one of ${PLANS.join(', ')}`);
        return { account: accountView(await accounts.create(opts.plan, opts.credits)) };
      }),
    );

  program
    .command('account:show')
    .description('Show an account')
    .argument('<id>', 'account id (acc_…)')
    .action((id) => run(async ({ accounts }) => ({ account: accountView(await found('account', id, accounts.get(id))) })));

  program
    .command('key:create')
    .description('Create an API key; the token is printed once')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, list)
    .option('--ip <cidrs>', 'comma-separated IPv4/IPv6 CIDRs allowed to use the key', list, [])
    .option('--daily-cap <n>', 'credits per UTC day', nonNegativeInt)
    .option('--monthly-cap <n>', 'credits per UTC month', nonNegativeInt)
    .option('--expires-at <iso>', 'expiry, ISO 8601')
    .action((opts) =>
      run(async ({ accounts, keys }) => {
        const unknown = (opts.scopes as string[]).filter((s) => !isScope(s));
        if (unknown.length || opts.scopes.length === 0) throw new InvalidArgumentError(`unknown scope(s): ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
        const badIp = (opts.ip as string[]).find((c) => !isValidCidr(c));
        if (badIp) throw new InvalidArgumentError(`--ip: ${badIp} is not an IPv4/IPv6 address or CIDR`);
        let expiresAt: Date | null = null;
        if (opts.expiresAt) {
          expiresAt = new Date(opts.expiresAt);
          if (Number.isNaN(expiresAt.getTime())) throw new InvalidArgumentError('--expires-at must be an ISO 8601 timestamp');
        }
        await found('account', opts.account, accounts.get(opts.account));
        const { key, token } = await keys.create({
          accountId: opts.account,
          scopes: opts.scopes,
          ipAllowlist: opts.ip,
          dailyCap: opts.dailyCap ?? null,
          monthlyCap: opts.monthlyCap ?? null,
          expiresAt,
        });
        return { key: keyView(key, token) };
      }),
    );

  program
    .command('key:revoke')
    .description('Revoke an API key; takes effect on its next request')
    .argument('<keyId>', 'key id (key_…)')
    .action((id) =>
      run(async ({ keys }) => {
        const key = await found('key', id, keys.revoke(id));
        return { key: keyView(key) };
      }),
    );

  program
    .command('credits:grant')
    .description('Add credits to an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--amount <n>', 'credits to add', nonNegativeInt)
    .action((opts) => run(async ({ credits }) => ({ account: accountView(await found('account', opts.account, credits.grant(opts.account, opts.amount))) })));

  return program;
}

async function main(argv: string[]): Promise<number> {
  readEnvFile();
  let exitCode = 0;
  const run = async (action: (s: Services) => Promise<unknown>) => {
    const config = loadConfig();
    await migrate(config.DATABASE_URL);
    const ctx = await NestFactory.createApplicationContext(AdminModule, { bufferLogs: true });
    ctx.useLogger(ctx.get(PinoNestLogger));
    try {
      const out = await action({ accounts: ctx.get(AccountsService), credits: ctx.get(AccountCredits), keys: ctx.get(ApiKeysService) });
      process.stdout.write(JSON.stringify(out) + '\n');
    } finally {
      await ctx.close();
    }
  };
  try {
    await buildProgram(run).parseAsync(argv);
  } catch (err) {
    // Commander has already printed its own parse errors. An InvalidArgumentError thrown by an
    // action (bad --plan, scope, CIDR, date) is ours and was not printed: it falls through.
    if (err instanceof CommanderError && !(err instanceof InvalidArgumentError)) return err.exitCode === 0 ? 0 : 2;
    cliErrors.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    exitCode = 1;
  }
  return exitCode;
}

main(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    cliErrors.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
