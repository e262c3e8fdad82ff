import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { DownloadUrlSigner } from './download-url-signer';
import { FileDeletions } from './file-deletions';
import { PendingFileDeletionsRepository } from './pending-file-deletions.repository';
import { StorageTombstonesRepository } from './storage-tombstones.repository';
import { FilesController } from './files.controller';
import { LocalStorageDriver } from './local-storage.driver';
import { S3StorageDriver } from './s3-storage.driver';
import { ServiceSecretsRepository } from './service-secrets.repository';
import { STORAGE, type StorageDriver } from './storage.driver';

/** STORAGE: the driver named by STORAGE_DRIVER (local disk by default, or S3), for every module. */
@Global()
@Module({
  controllers: [FilesController],
  providers: [
    ServiceSecretsRepository,
    DownloadUrlSigner,
    {
      provide: STORAGE,
      inject: [AppConfig, DownloadUrlSigner],
      useFactory: (config: AppConfig, signer: DownloadUrlSigner): StorageDriver =>
        config.STORAGE_DRIVER === 's3' ? S3StorageDriver.fromConfig(config) : new LocalStorageDriver(config.STORAGE_DIR, signer),
    },
    PendingFileDeletionsRepository,
    StorageTombstonesRepository,
    FileDeletions,
  ],
  exports: [STORAGE, FileDeletions, PendingFileDeletionsRepository, StorageTombstonesRepository],
})
export class StorageModule {}
