import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import type { DownloadLink, SubmissionUpdate } from '../../generated/types';
import { ApiError } from '../common/api-error';
import { decodeCursor, paginate } from '../common/cursor';
import { Drop } from '../drops/drop.entity';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { Submission } from './submission.entity';

export const DOWNLOAD_URL_SECONDS = 3600;

export interface SubmissionFilters {
  isRead?: boolean;
  isStarred?: boolean;
  isArchived?: boolean;
}

/** The owner's side of submissions: list, read, flag, delete, download. */
@Injectable()
export class SubmissionsService {
  private readonly logger = new Logger(SubmissionsService.name);

  constructor(
    @InjectRepository(Submission) private readonly submissions: Repository<Submission>,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  async list(drop: Drop, limit: number, cursor: string | undefined, filters: SubmissionFilters) {
    const after = decodeCursor(cursor);
    const qb = this.submissions
      .createQueryBuilder('s')
      .where('s.drop_id = :dropId', { dropId: drop.id })
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(limit + 1);
    if (after) qb.andWhere('(s.created_at, s.id) < (:createdAt, :id)', after);
    for (const [flag, column] of [['isRead', 'is_read'], ['isStarred', 'is_starred'], ['isArchived', 'is_archived']] as const) {
      if (filters[flag] !== undefined) qb.andWhere(`s.${column} = :${flag}`, { [flag]: filters[flag] });
    }
    return paginate(await qb.getMany(), limit);
  }

  async get(drop: Drop, id: string): Promise<Submission> {
    const submission = await this.submissions.findOneBy({ id, dropId: drop.id });
    if (!submission) throw ApiError.notFound('Submission');
    return submission;
  }

  async update(drop: Drop, id: string, flags: SubmissionUpdate): Promise<Submission> {
    const submission = await this.get(drop, id);
    if (Object.keys(flags).length > 0) await this.submissions.update({ id: submission.id }, flags);
    return this.get(drop, id);
  }

  /** Row and counters in one transaction; the stored files after it commits. */
  async delete(drop: Drop, id: string): Promise<void> {
    const submission = await this.db.transaction(async (tx) => {
      const [rows]: [Submission[], number] = await tx.query(
        'DELETE FROM submissions WHERE id = $1 AND drop_id = $2 RETURNING storage_key AS "storageKey", processed_key AS "processedKey", file_size AS "fileSize"',
        [id, drop.id],
      );
      const row = rows[0];
      if (!row) throw ApiError.notFound('Submission');
      await tx.query('UPDATE drops SET submission_count = submission_count - 1, total_bytes = total_bytes - $2 WHERE id = $1', [drop.id, row.fileSize]);
      return row;
    });
    await this.removeFiles([submission.storageKey, submission.processedKey]);
  }

  async downloadLink(drop: Drop, id: string, processed: boolean): Promise<DownloadLink> {
    const s = await this.get(drop, id);
    if (processed) {
      if (!s.processedKey || !s.processedFileName) {
        const why = !drop.autoConvertTo && !drop.autoCompress ? 'the drop does not convert files' : s.status === 'processing' ? 'processing has not finished' : 'no processed file was produced';
        throw ApiError.conflict('processed_unavailable', `No processed file for this submission: ${why}.`);
      }
      const url = await this.storage.signedUrl(s.processedKey, { fileName: s.processedFileName, expiresIn: DOWNLOAD_URL_SECONDS, contentType: s.processedMime ?? undefined });
      return { url, expiresIn: DOWNLOAD_URL_SECONDS, file: 'processed' };
    }
    const url = await this.storage.signedUrl(s.storageKey, { fileName: s.fileName, expiresIn: DOWNLOAD_URL_SECONDS, contentType: s.fileMime });
    return { url, expiresIn: DOWNLOAD_URL_SECONDS, file: 'original' };
  }

  /** Best effort after the rows are gone: a leftover file is logged, never a dangling row. */
  async removeFiles(keys: (string | null | undefined)[]): Promise<void> {
    const present = keys.filter((k): k is string => Boolean(k));
    if (present.length === 0) return;
    try {
      await this.storage.deleteMany(present);
    } catch (err) {
      this.logger.error(`Could not delete stored files ${present.join(', ')}: ${(err as Error).message}`);
    }
  }
}
