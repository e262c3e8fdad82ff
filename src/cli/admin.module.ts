import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { ApiKey } from '../auth/api-key.entity';
import { ApiKeysService } from '../auth/api-keys.service';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';

/** Just what the admin commands need: no HTTP, no Redis, no guards. */
@Module({
  imports: [ConfigModule.forRoot(), DatabaseModule, AccountsModule, TypeOrmModule.forFeature([ApiKey])],
  providers: [ApiKeysService],
})
export class AdminModule {}
