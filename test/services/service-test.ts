import 'reflect-metadata';
import type { DynamicModule, InjectionToken, Provider, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '../../src/accounts/account.entity';
import { AccountsModule } from '../../src/accounts/accounts.module';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { AuthModule } from '../../src/auth/auth.module';
import { ApiKeysService, type NewKeyInput } from '../../src/auth/api-keys.service';
import { SCOPES } from '../../src/auth/scopes';
import { Clock } from '../../src/common/clock';
import { newId } from '../../src/common/ids';
import { loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';
import { ContractModule } from '../../src/contract/contract.module';
import { DatabaseModule } from '../../src/database/database.module';
import { QueueModule } from '../../src/queue/queue.module';
import { RedisModule } from '../../src/redis/redis.module';
import { StorageModule } from '../../src/storage/storage.module';
import { TEST_DATABASE_URL, TEST_QUEUE_PREFIX, TEST_REDIS_URL } from '../support/env';
import type { StandIn } from './stand-ins';

type ModuleImport = Type<unknown> | DynamicModule;

/** A Clock tests set; unset, it is the real time. */
export class TestClock extends Clock {
  at?: Date;
  now(): Date {
    return this.at ? new Date(this.at) : new Date();
  }
}

export interface ServiceTestOptions {
  /** The domain modules under test, as the apps import them (JobsModule, DropsModule, …): their real providers. */
  modules: ModuleImport[];
  /**
   * Classes an app provides beside the domain modules, that the test needs (ProcessedListener and
   * ReconcileJobs are the worker's): their dependencies come from the modules' exports.
   */
  providers?: Provider[];
  /** What crosses the process boundary, each named and explained (stand-ins.ts). Nothing else is replaced. */
  standIns?: StandIn[];
  /** Configuration over the test defaults (AppConfig keys). */
  env?: Record<string, string>;
}

export interface ServiceTest {
  module: TestingModule;
  clock: TestClock;
  get<T>(token: Type<T> | InjectionToken): T;
  close(): Promise<void>;
}

/**
 * A module's services below HTTP, wired by Nest as the apps wire them: the domain modules are
 * imported whole, over the platform modules the apps provide globally — the run's own Postgres
 * database (migrated by the project's global setup, dropped by its teardown), the machine's Redis
 * and BullMQ under a prefix of this file's own, local-disk storage in a temporary folder. Only the
 * named stand-ins replace providers, plus the Clock, which a test may set.
 */
export async function newServiceTest(options: ServiceTestOptions): Promise<ServiceTest> {
  const storageDir = mkdtempSync(join(tmpdir(), 'dropline-service-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    // Rate limits, locks and queues of this test file only: files of one run share Redis.
    QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-svc-${randomUUID().slice(0, 8)}`,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: storageDir,
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const clock = new TestClock();
  let builder = Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), ContractModule, DatabaseModule, RedisModule, QueueModule, StorageModule, AuthModule, AccountsModule, ...options.modules],
    providers: options.providers ?? [],
  })
    .overrideProvider(Clock)
    .useValue(clock);
  for (const standIn of options.standIns ?? []) builder = builder.overrideProvider(standIn.token).useValue(standIn.value);
  const module = await builder.compile();
  module.useLogger(false);
  await module.init();
  return {
    module,
    clock,
    get: <T>(token: Type<T> | InjectionToken) => module.get<T>(token, { strict: false }),
    close: async () => {
      await module.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/** An account and a key with every scope, through the accounts repository and the key service. */
export async function tenant(t: Pick<ServiceTest, 'get'>, options: { plan?: Account['plan']; credits?: number; key?: Partial<Omit<NewKeyInput, 'accountId'>> } = {}) {
  const account = await t.get(AccountsRepository).create({
    id: newId('acc'),
    plan: options.plan ?? 'pro',
    creditBalance: options.credits ?? 100,
    webhookSecret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`,
  });
  const { key } = await t.get(ApiKeysService).create({ scopes: [...SCOPES], ...options.key, accountId: account.id });
  return { account, key };
}

export async function balanceOf(t: Pick<ServiceTest, 'get'>, accountId: string): Promise<number> {
  return (await t.get(AccountsRepository).findById(accountId))!.creditBalance;
}
