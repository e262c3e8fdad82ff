import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from '../accounts/account.entity';
import { AccountsRepository } from '../accounts/accounts.repository';
import { ApiKey } from '../auth/api-key.entity';
import { ApiKeysRepository } from '../auth/api-keys.repository';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { CreditLedgerRepository } from '../credits/credit-ledger.repository';
import { Drop } from '../drops/drop.entity';
import { DropsRepository } from '../drops/drops.repository';
import { IdempotencyRepository } from '../jobs/idempotency.repository';
import { JobsRepository } from '../jobs/jobs.repository';
import { ServiceSecretsRepository } from '../storage/service-secrets.repository';
import { PendingFileDeletionsRepository } from '../storage/pending-file-deletions.repository';
import { StorageTombstonesRepository } from '../storage/storage-tombstones.repository';
import { RetentionRepository } from '../retention/retention.repository';
import { ExclusiveSweeps } from '../retention/exclusive-sweeps';
import { Submission } from '../submissions/submission.entity';
import { SubmissionsRepository } from '../submissions/submissions.repository';
import { Upload } from '../uploads/upload.entity';
import { UploadsRepository } from '../uploads/uploads.repository';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository';
import { dataSourceOptions } from './data-source';
import { DatabaseHealthRepository } from './database-health.repository';
import { Transactions } from './transactions';

/**
 * One repository per table (`src/<domain>/<table>.repository.ts`): the only code that speaks SQL
 * besides the migrations. Global, like immich's repository list, so a domain reads another
 * domain's table through that table's repository without a web of module imports.
 */
export const REPOSITORIES = [
  AccountsRepository,
  ApiKeysRepository,
  CreditLedgerRepository,
  DropsRepository,
  IdempotencyRepository,
  JobsRepository,
  ServiceSecretsRepository,
  SubmissionsRepository,
  UploadsRepository,
  WebhookDeliveriesRepository,
  DatabaseHealthRepository,
  PendingFileDeletionsRepository,
  StorageTombstonesRepository,
  RetentionRepository,
];

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.DATABASE_URL), retryAttempts: 5, retryDelay: 1000 }),
    }),
    TypeOrmModule.forFeature([Account, ApiKey, Drop, Submission, Upload, WebhookDelivery]),
  ],
  providers: [...REPOSITORIES, Transactions, Clock, ExclusiveSweeps],
  exports: [...REPOSITORIES, Transactions, Clock, ExclusiveSweeps],
})
export class DatabaseModule {}
