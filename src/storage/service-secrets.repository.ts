import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { firstRow } from '../database/sql';

/** Secrets the service makes for itself once and every process shares (table service_secrets). */
@Injectable()
export class ServiceSecretsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The secret kept under `name`, storing `candidate` first if there is none yet. Processes starting
   * together all get the same value: a second INSERT waits for the first to commit, then does nothing.
   */
  async keepFirst(name: string, candidate: string): Promise<string> {
    await this.db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate]);
    const row = await firstRow<{ value: string }>(this.db, 'SELECT value FROM service_secrets WHERE name = $1', [name]);
    return row!.value;
  }
}
