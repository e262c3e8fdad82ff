import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CursorPosition } from '../common/cursor';
import { type Db, firstRow, rows } from '../database/sql';
import type { ProcessingError, Submission, SubmissionOutputFile } from './submission.entity';

/** A row's template outputs in step order, one probe of submission_outputs' primary key (`[]` without any). */
const OUTPUTS = `COALESCE((SELECT jsonb_agg(jsonb_build_object('name', o.name, 'storageKey', o.storage_key, 'fileName', o.file_name,
  'size', o.size, 'contentType', o.content_type) ORDER BY o.position) FROM submission_outputs o WHERE o.submission_id = submissions.id), '[]'::jsonb)`;

const COLUMNS = `id, drop_id AS "dropId", sender_name AS "senderName", sender_email AS "senderEmail", message,
  file_name AS "fileName", file_size::float8 AS "fileSize", file_mime AS "fileMime", file_kind AS "fileKind",
  storage_key AS "storageKey", status, processed_key AS "processedKey", processed_file_name AS "processedFileName",
  processed_mime AS "processedMime", processing_error AS "processingError", is_read AS "isRead", is_starred AS "isStarred", is_archived AS "isArchived",
  is_late AS "isLate", scan_status AS "scanStatus", scan_signature AS "scanSignature", scanned_at AS "scannedAt",
  created_at AS "createdAt", ${OUTPUTS} AS outputs`;

export interface SubmissionFlags {
  isRead?: boolean;
  isStarred?: boolean;
  isArchived?: boolean;
}

const FLAG_COLUMNS: Record<keyof SubmissionFlags, string> = { isRead: 'is_read', isStarred: 'is_starred', isArchived: 'is_archived' };

export type NewSubmission = Omit<
  Submission,
  'createdAt' | 'processedKey' | 'processedFileName' | 'processedMime' | 'isRead' | 'isStarred' | 'isArchived' | 'processingError' | 'scanSignature' | 'scannedAt' | 'outputs'
> & {
  processingError?: ProcessingError | null;
};

/** The submissions table. The owner's list is the hot read: plain SQL on (drop_id, created_at, id). */
@Injectable()
export class SubmissionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tx: Db, s: NewSubmission): Promise<Submission> {
    return (await firstRow<Submission>(
      tx,
      `INSERT INTO submissions (id, drop_id, sender_name, sender_email, message, file_name, file_size, file_mime, file_kind, storage_key, status,
         processing_error, is_read, is_starred, is_archived, is_late, scan_status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, false, false, false, $13, $14) RETURNING ${COLUMNS}`,
      [
        s.id,
        s.dropId,
        s.senderName,
        s.senderEmail,
        s.message,
        s.fileName,
        s.fileSize,
        s.fileMime,
        s.fileKind,
        s.storageKey,
        s.status,
        s.processingError ? JSON.stringify(s.processingError) : null,
        s.isLate,
        s.scanStatus,
      ],
    ))!;
  }

  findById(id: string): Promise<Submission | undefined> {
    return firstRow<Submission>(this.db, `SELECT ${COLUMNS} FROM submissions WHERE id = $1`, [id]);
  }

  findInDrop(dropId: string, id: string): Promise<Submission | undefined> {
    return firstRow<Submission>(this.db, `SELECT ${COLUMNS} FROM submissions WHERE id = $1 AND drop_id = $2`, [id, dropId]);
  }

  listInDrop(dropId: string, take: number, after: CursorPosition | undefined, flags: SubmissionFlags): Promise<Submission[]> {
    return rows<Submission>(
      this.db,
      `SELECT ${COLUMNS} FROM submissions
       WHERE drop_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
         AND ($4::boolean IS NULL OR is_read = $4) AND ($5::boolean IS NULL OR is_starred = $5) AND ($6::boolean IS NULL OR is_archived = $6)
       ORDER BY created_at DESC, id DESC LIMIT $7`,
      [dropId, after?.createdAt ?? null, after?.id ?? null, flags.isRead ?? null, flags.isStarred ?? null, flags.isArchived ?? null, take],
    );
  }

  /** Oldest first after `after`, with the list's flag filters: the archive's pages. */
  listInDropOldestFirst(dropId: string, take: number, after: CursorPosition | undefined, flags: SubmissionFlags): Promise<Submission[]> {
    return rows<Submission>(
      this.db,
      `SELECT ${COLUMNS} FROM submissions
       WHERE drop_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::text))
         AND ($4::boolean IS NULL OR is_read = $4) AND ($5::boolean IS NULL OR is_starred = $5) AND ($6::boolean IS NULL OR is_archived = $6)
       ORDER BY created_at ASC, id ASC LIMIT $7`,
      [dropId, after?.createdAt ?? null, after?.id ?? null, flags.isRead ?? null, flags.isStarred ?? null, flags.isArchived ?? null, take],
    );
  }

  async setFlags(id: string, flags: SubmissionFlags): Promise<void> {
    const set = (Object.keys(FLAG_COLUMNS) as (keyof SubmissionFlags)[]).filter((f) => flags[f] !== undefined);
    if (set.length === 0) return;
    await this.db.query(`UPDATE submissions SET ${set.map((f, i) => `${FLAG_COLUMNS[f]} = $${i + 2}`).join(', ')} WHERE id = $1`, [id, ...set.map((f) => flags[f])]);
  }

  /** The converted file of a finished auto-conversion; undefined when the submission is gone. */
  setProcessed(id: string, p: { processedKey: string; processedFileName: string; processedMime: string }): Promise<Submission | undefined> {
    return firstRow<Submission>(
      this.db,
      `UPDATE submissions SET status = 'ready', processed_key = $2, processed_file_name = $3, processed_mime = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, p.processedKey, p.processedFileName, p.processedMime],
    );
  }

  setFailed(id: string, error: ProcessingError): Promise<Submission | undefined> {
    return firstRow<Submission>(this.db, `UPDATE submissions SET status = 'failed', processing_error = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, JSON.stringify(error)]);
  }

  /**
   * The end of a drop's template run, in the caller's transaction: its files (kept as they are on a
   * redelivery) and the submission's status. The row is locked first, so a deletion either came
   * before (undefined: the files belong to nobody) or waits and deletes the files with the row.
   */
  async recordOutputs(
    tx: Db,
    id: string,
    outputs: SubmissionOutputFile[],
    end: { status: 'ready' | 'failed'; processingError: ProcessingError | null },
  ): Promise<Submission | undefined> {
    if (!(await firstRow(tx, 'SELECT id FROM submissions WHERE id = $1 FOR UPDATE', [id]))) return undefined;
    if (outputs.length > 0) {
      await tx.query(
        `INSERT INTO submission_outputs (submission_id, name, position, storage_key, file_name, size, content_type)
         SELECT $1, o.name, o.position, o.key, o.file_name, o.size, o.content_type
           FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::text[]) AS o(name, position, key, file_name, size, content_type)
         ON CONFLICT (submission_id, name) DO NOTHING`,
        [
          id,
          outputs.map((o) => o.name),
          outputs.map((_o, i) => i),
          outputs.map((o) => o.storageKey),
          outputs.map((o) => o.fileName),
          outputs.map((o) => o.size),
          outputs.map((o) => o.contentType),
        ],
      );
    }
    return firstRow<Submission>(tx, `UPDATE submissions SET status = $2, processing_error = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
      end.status,
      end.processingError ? JSON.stringify(end.processingError) : null,
    ]);
  }

  /**
   * Deletes one submission of a drop and returns what its files and the counters need: the row is
   * locked first, so its template outputs read next include any a finishing run recorded meanwhile.
   */
  async deleteInDrop(tx: Db, dropId: string, id: string): Promise<(Pick<Submission, 'storageKey' | 'processedKey' | 'fileSize'> & { outputKeys: string[] }) | undefined> {
    if (!(await firstRow(tx, 'SELECT id FROM submissions WHERE id = $1 AND drop_id = $2 FOR UPDATE', [id, dropId]))) return undefined;
    const outputs = await rows<{ key: string }>(tx, 'SELECT storage_key AS key FROM submission_outputs WHERE submission_id = $1', [id]);
    const row = await firstRow<Pick<Submission, 'storageKey' | 'processedKey' | 'fileSize'>>(
      tx,
      'DELETE FROM submissions WHERE id = $1 AND drop_id = $2 RETURNING storage_key AS "storageKey", processed_key AS "processedKey", file_size::float8 AS "fileSize"',
      [id, dropId],
    );
    return row && { ...row, outputKeys: outputs.map((o) => o.key) };
  }
}
