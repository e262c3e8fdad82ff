import { AppConfig } from '../config/config';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { createTusStorage } from './tus-store';

/** DI token of the shared {@link TusStorage} (one store for drop and job uploads). */
export const TUS_STORAGE = Symbol('TUS_STORAGE');

export const tusStorageProvider = {
  provide: TUS_STORAGE,
  inject: [AppConfig, STORAGE],
  useFactory: (config: AppConfig, storage: StorageDriver) => createTusStorage(config, storage),
};
