import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/config';
import { AccountApiModule } from './account-api/account-api.module';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { ContractModule } from './contract/contract.module';
import { OperationBindingModule } from './contract/operation-binding.module';
import { DatabaseModule } from './database/database.module';
import { DropPageModule } from './drop-page/drop-page.module';
import { DropsModule } from './drops/drops.module';
import { HealthController } from './health/health.controller';
import { RedisModule } from './redis/redis.module';
import { QueueModule } from './queue/queue.module';
import { StorageModule } from './storage/storage.module';
import { SubmissionsModule } from './submissions/submissions.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WorkerModule } from './worker/worker.module';
import { CreditsModule } from './credits/credits.module';
import { JobsModule } from './jobs/jobs.module';
import { LoggingModule } from './logging/logging.module';
import { createRootLogger } from './logging/root-logger';
import { MetricsModule } from './metrics/metrics.module';
import { ToolsModule } from './tools/tools.module';
import { UploadsModule } from './uploads/uploads.module';
import { TemplatesModule } from './templates/templates.module';
import { TusModule } from './tus/tus.module';
import { ScanningModule } from './scanning/scanning.module';

/** Shared infrastructure: config, contract, Postgres, Redis. Both the API and the worker import it. */
@Module({
  imports: [ContractModule, RedisModule, DatabaseModule, QueueModule, StorageModule, ScanningModule],
  exports: [ContractModule, RedisModule, DatabaseModule, QueueModule, StorageModule, ScanningModule],
})
export class CoreModule {}

/** The HTTP API. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logStream?: NodeJS.WritableStream): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(createRootLogger(config, 1, logStream)),
        CoreModule,
        AuthModule,
        AccountsModule,
        AccountApiModule,
        DropsModule,
        SubmissionsModule,
        DropPageModule,
        WebhooksModule,
        CreditsModule,
        ToolsModule,
        UploadsModule,
        TusModule,
        JobsModule,
        TemplatesModule,
        MetricsModule,
        OperationBindingModule,
        ...(config.WORKER_IN_PROCESS === 'true' ? [WorkerModule] : []),
      ],
      controllers: [HealthController],
    };
  }
}

/** The worker process: the shared infrastructure and the queue consumers, no HTTP. */
@Module({})
export class WorkerRootModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerRootModule, imports: [ConfigModule.forRoot(config), LoggingModule.forRoot(createRootLogger(config)), CoreModule, WorkerModule] };
  }
}
