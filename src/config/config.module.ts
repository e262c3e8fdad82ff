import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './config';

/** Provides the one validated AppConfig; pass one in (tests, CLI) or it is read from the environment. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useFactory: () => config ?? loadConfig() }],
      exports: [AppConfig],
    };
  }
}
