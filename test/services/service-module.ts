import 'reflect-metadata';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import type { Account } from '../../src/accounts/account.entity';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { ApiKeysService, type NewKeyInput } from '../../src/auth/api-keys.service';
import { CreditLedgerRepository } from '../../src/credits/credit-ledger.repository';
import { DropsRepository } from '../../src/drops/drops.repository';
import { DropEventsRepository } from '../../src/drops/drop-events.repository';
import { IdempotencyRepository } from '../../src/jobs/idempotency.repository';
import { PipelinesRepository } from '../../src/jobs/pipelines.repository';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { ServiceSecretsRepository } from '../../src/storage/service-secrets.repository';
import { SubmissionsRepository } from '../../src/submissions/submissions.repository';
import { UploadsRepository } from '../../src/uploads/uploads.repository';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { SCOPES } from '../../src/auth/scopes';
import { Clock } from '../../src/common/clock';
import { newId } from '../../src/common/ids';
import { ConfigModule } from '../../src/config/config.module';
import { loadConfig } from '../../src/config/config';
import { DatabaseModule } from '../../src/database/database.module';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/env';
import { PendingFileDeletionsRepository } from '../../src/storage/pending-file-deletions.repository';
import { StorageTombstonesRepository } from '../../src/storage/storage-tombstones.repository';

type ModuleImport = Type<unknown> | DynamicModule;

/** Each domain module provides its own repositories; a service test gets them all, over the test database. */
const REPOSITORIES = [
  AccountsRepository,
  ApiKeysRepository,
  CreditLedgerRepository,
  DropsRepository,
  DropEventsRepository,
  IdempotencyRepository,
  JobsRepository,
  PipelinesRepository,
  ServiceSecretsRepository,
  SubmissionsRepository,
  UploadsRepository,
  WebhookDeliveriesRepository,
  PendingFileDeletionsRepository,
  StorageTombstonesRepository,
];

/** A Clock tests set; unset, it is the real time. */
export class TestClock extends Clock {
  at?: Date;
  now(): Date {
    return this.at ? new Date(this.at) : new Date();
  }
}

/**
 * Services with their real repositories on the real test Postgres (the migrated test database);
 * only what is not Postgres (the queue, HTTP delivery scheduling) may be stubbed by the caller.
 */
export async function serviceModule(providers: Provider[], env: Record<string, string> = {}, imports: ModuleImport[] = []): Promise<{ module: TestingModule; clock: TestClock }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: TEST_DATABASE_URL, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent', ...env });
  const clock = new TestClock();
  const module = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config), DatabaseModule, ...imports], providers: [...REPOSITORIES, ApiKeysService, ...providers] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  module.useLogger(false);
  await module.init();
  return { module, clock };
}

/** An account and a key with every scope, straight through the repositories. */
export async function tenant(module: TestingModule, options: { plan?: Account['plan']; credits?: number; key?: Partial<Omit<NewKeyInput, 'accountId'>> } = {}) {
  const account = await module.get(AccountsRepository).create({
    id: newId('acc'),
    plan: options.plan ?? 'pro',
    creditBalance: options.credits ?? 100,
    webhookSecret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
  });
  const { key } = await module.get(ApiKeysService).create({ scopes: [...SCOPES], ...options.key, accountId: account.id });
  return { account, key };
}

export async function balanceOf(module: TestingModule, accountId: string): Promise<number> {
  return (await module.get(AccountsRepository).findById(accountId))!.creditBalance;
}
