import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/config';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { ContractModule } from './contract/contract.module';
import { DatabaseModule } from './database/database.module';
import { DropsModule } from './drops/drops.module';
import { HealthController } from './health/health.controller';
import { RedisModule } from './redis/redis.module';
import { StorageModule } from './storage/storage.module';

/** Shared infrastructure: config, contract, Postgres, Redis. Both the API and the worker import it. */
@Module({
  imports: [ContractModule, RedisModule, DatabaseModule],
  exports: [ContractModule, RedisModule, DatabaseModule],
})
export class CoreModule {}

/** The HTTP API. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), CoreModule, AuthModule, AccountsModule, DropsModule, StorageModule],
      controllers: [HealthController],
    };
  }
}
