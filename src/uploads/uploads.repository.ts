import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { rows } from '../database/sql';
import { Upload } from './upload.entity';

/** The uploads table: files sent to POST /v1/uploads, kept until expires_at. */
@Injectable()
export class UploadsRepository {
  constructor(@InjectRepository(Upload) private readonly uploads: Repository<Upload>) {}

  async insert(upload: Omit<Upload, 'createdAt'>): Promise<Upload> {
    await this.uploads.insert(this.uploads.create(upload));
    return this.uploads.findOneByOrFail({ id: upload.id });
  }

  async findForAccount(id: string, accountId: string): Promise<Upload | undefined> {
    return (await this.uploads.findOneBy({ id, accountId })) ?? undefined;
  }

  /** Deletes up to `limit` uploads expired at `now`, returning their storage keys. */
  async deleteExpired(now: Date, limit: number): Promise<string[]> {
    const deleted = await rows<{ storage_key: string }>(
      this.uploads.manager,
      // = ANY(ARRAY(…)): an index lookup of the batch; `id IN (SELECT …)` hash-joined a scan of the whole table.
      'DELETE FROM uploads WHERE id = ANY(ARRAY(SELECT id FROM uploads WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)) RETURNING storage_key',
      [now, limit],
    );
    return deleted.map((r) => r.storage_key);
  }
}
