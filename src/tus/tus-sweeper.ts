import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { ExclusiveSweeps } from '../sweeps/exclusive-sweeps';
import { TUS_STORAGE } from './tus-storage.provider';
import type { TusStorage } from './tus-store';

/** Removes the bytes of tus uploads left incomplete past TUS_EXPIRY_SECONDS, every TUS_SWEEP_INTERVAL_SECONDS. */
@Injectable()
export class TusSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TusSweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(TUS_STORAGE) private readonly tus: TusStorage,
    private readonly config: AppConfig,
    private readonly sweeps: ExclusiveSweeps,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep().catch((err) => this.logger.error(`tus sweep failed: ${err.message}`)), this.config.TUS_SWEEP_INTERVAL_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep (never two at once in a process, one process of the deployment at a time); the number of uploads removed. */
  sweep(): Promise<number> {
    this.running ??= this.sweeps
      .run('tus-sweeper', () => this.tus.store.deleteExpired())
      .then((removed) => removed ?? 0)
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
