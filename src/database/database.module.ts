import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.DATABASE_URL), retryAttempts: 5, retryDelay: 1000 }),
    }),
  ],
})
export class DatabaseModule {}
