import { Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { ContractModule } from './contract/contract.module';
import { DatabaseModule } from './database/database.module';
import { DropsModule } from './drops/drops.module';
import { HealthController } from './health/health.controller';
import { RedisModule } from './redis/redis.module';

/** Shared infrastructure: config, contract, Postgres, Redis. Both the API and the worker import it. */
@Module({
  imports: [
    ConfigModule,
    ContractModule,
    RedisModule,
    DatabaseModule,
  ],
})
export class CoreModule {}

/** The HTTP API. */
@Module({
  imports: [CoreModule, AuthModule, AccountsModule, DropsModule],
  controllers: [HealthController],
})
export class AppModule {}
