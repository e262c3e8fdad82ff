import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { DatabaseHealthRepository } from './database-health.repository';
import { ListenClient } from './listen-client';
import { Transactions } from './transactions';

/**
 * The Postgres connection, transactions, the clock and the one LISTEN connection, for every module. It names no domain: each
 * domain module provides the repositories of its own tables (`src/<domain>/<table>.repository.ts`,
 * plain SQL, docs/adr/0005-raw-sql-repositories.md) and exports those other modules read.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.DATABASE_URL), retryAttempts: 5, retryDelay: 1000 }),
    }),
  ],
  providers: [DatabaseHealthRepository, Transactions, Clock, ListenClient],
  exports: [DatabaseHealthRepository, Transactions, Clock, ListenClient],
})
export class DatabaseModule {}
