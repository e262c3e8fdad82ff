import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { GUARDED_HTTP_CLIENT_OPTIONS, GuardedHttpClient, GuardedHttpClientOptions } from './guarded-fetch';

/**
 * Provides the SSRF-guarded client. ALLOW_PRIVATE_HOSTS is read through the typed AppConfig, which
 * the global ConfigModule registered by the root module provides.
 */
@Module({
  providers: [
    {
      provide: GUARDED_HTTP_CLIENT_OPTIONS,
      inject: [AppConfig],
      useFactory: (config: AppConfig): GuardedHttpClientOptions => ({ allowPrivateHosts: config.ALLOW_PRIVATE_HOSTS }),
    },
    GuardedHttpClient,
  ],
  exports: [GuardedHttpClient],
})
export class HttpFetchModule {}
