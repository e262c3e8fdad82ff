import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { firstRow, rows } from '../database/sql';
import type { Upload } from './upload.entity';

const COLUMNS = `id, account_id AS "accountId", storage_key AS "storageKey", file_name AS "fileName", file_size::float8 AS "fileSize",
  file_mime AS "fileMime", file_kind AS "fileKind", created_at AS "createdAt", expires_at AS "expiresAt"`;

/** The uploads table: files sent to POST /v1/uploads, kept until expires_at. */
@Injectable()
export class UploadsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(upload: Omit<Upload, 'createdAt'>): Promise<Upload> {
    return (await firstRow<Upload>(
      this.db,
      `INSERT INTO uploads (id, account_id, storage_key, file_name, file_size, file_mime, file_kind, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [upload.id, upload.accountId, upload.storageKey, upload.fileName, upload.fileSize, upload.fileMime, upload.fileKind, upload.expiresAt],
    ))!;
  }

  async findForAccount(id: string, accountId: string): Promise<Upload | undefined> {
    return firstRow<Upload>(this.db, `SELECT ${COLUMNS} FROM uploads WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  /** Deletes up to `limit` uploads expired at `now`, returning their storage keys. */
  async deleteExpired(now: Date, limit: number): Promise<string[]> {
    const deleted = await rows<{ storage_key: string }>(
      this.db,
      // = ANY(ARRAY(…)): an index lookup of the batch; `id IN (SELECT …)` hash-joined a scan of the whole table.
      'DELETE FROM uploads WHERE id = ANY(ARRAY(SELECT id FROM uploads WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)) RETURNING storage_key',
      [now, limit],
    );
    return deleted.map((r) => r.storage_key);
  }
}
