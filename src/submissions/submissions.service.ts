import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DownloadLink, SubmissionUpdate } from '../../generated/types';
import { DomainError } from '../common/domain-error';
import { decodeCursor, paginate } from '../common/cursor';
import { servedContentType } from '../common/file-sniffer';
import { Transactions } from '../database/transactions';
import type { Drop } from '../drops/drop.entity';
import { DropsRepository } from '../drops/drops.repository';
import { type DropEventActor, DropEventsRepository } from '../drops/drop-events.repository';
import { FileDeletions } from '../storage/file-deletions';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { AppConfig } from '../config/config';
import { checkDownloadable } from './scan-gate';
import type { Submission } from './submission.entity';
import { SubmissionsRepository } from './submissions.repository';

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
    private readonly submissions: SubmissionsRepository,
    private readonly drops: DropsRepository,
    private readonly transactions: Transactions,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly config: AppConfig,
    private readonly fileDeletions: FileDeletions,
    private readonly dropEvents: DropEventsRepository,
  ) {}

  async list(drop: Drop, limit: number, cursor: string | undefined, filters: SubmissionFilters) {
    return paginate(await this.submissions.listInDrop(drop.id, limit + 1, decodeCursor(cursor), filters), limit);
  }

  async get(drop: Drop, id: string): Promise<Submission> {
    const submission = await this.submissions.findInDrop(drop.id, id);
    if (!submission) throw DomainError.notFound('Submission');
    return submission;
  }

  async update(drop: Drop, id: string, flags: SubmissionUpdate): Promise<Submission> {
    const submission = await this.get(drop, id);
    await this.submissions.setFlags(submission.id, flags);
    return this.get(drop, id);
  }

  /** Row, counters and the `submission.deleted` event (when an `actor` is given: every request does) in one transaction; the stored files after it commits. */
  async delete(drop: Drop, id: string, actor?: DropEventActor): Promise<void> {
    const submission = await this.transactions.run(async (tx) => {
      const row = await this.submissions.deleteInDrop(tx, drop.id, id);
      if (!row) throw DomainError.notFound('Submission');
      await this.drops.removeSubmission(tx, drop.id, row.fileSize);
      // Recorded with the row's deletion: a storage failure after the commit is retried by the purge.
      await this.fileDeletions.record(tx, [row.storageKey, row.processedKey, ...row.outputKeys]);
      if (actor) await this.dropEvents.record(tx, drop.id, 'submission.deleted', actor, id);
      return row;
    });
    await this.fileDeletions.removeNow([submission.storageKey, submission.processedKey, ...submission.outputKeys]);
  }

  /** A signed link, recorded in the drop's log (`submission.downloaded`) before it is handed out. */
  async downloadLink(drop: Drop, id: string, processed: boolean, output: string | undefined, actor: DropEventActor): Promise<DownloadLink> {
    const link = await this.signLink(drop, id, processed, output);
    const detail = link.output === undefined ? { file: link.file } : { file: link.file, output: link.output };
    // Nothing changes in the database here: no transaction to join, and a failed write is logged, never the owner's error.
    await this.dropEvents
      .record(undefined, drop.id, 'submission.downloaded', actor, id, detail)
      .catch((err: Error) => this.logger.error(`Download of ${id} not logged: ${err.message}`));
    return link;
  }

  /** The original, the processed file (`processed`) or one of the template's outputs (`output`, by name), signed for an hour. */
  private async signLink(drop: Drop, id: string, processed: boolean, output?: string): Promise<DownloadLink> {
    if (processed && output !== undefined) {
      throw DomainError.validation('Ask for the processed file or for an output, not both.', [{ path: 'query/output', message: 'cannot be combined with processed=true' }]);
    }
    const s = await this.get(drop, id);
    checkDownloadable(s, this.config.SCAN_MODE, this.config.SCAN_RETRY_SECONDS);
    if (output !== undefined) {
      const file = s.outputs.find((o) => o.name === output);
      if (!file) throw new DomainError('not_found', outputMissing(s, output));
      const url = await this.storage.signedUrl(file.storageKey, { fileName: file.fileName, expiresIn: DOWNLOAD_URL_SECONDS, contentType: servedContentType(file.contentType) });
      return { url, expiresIn: DOWNLOAD_URL_SECONDS, file: 'output', output: file.name };
    }
    if (processed) {
      if (!s.processedKey || !s.processedFileName) {
        const why = drop.processWith
          ? "the drop runs a template: its files are the submission's outputs (download them with ?output=<name>)"
          : !drop.autoConvertTo && !drop.autoCompress
            ? 'the drop does not convert files'
            : s.status === 'processing'
              ? 'processing has not finished'
              : 'no processed file was produced';
        throw new DomainError('processed_unavailable', `No processed file for this submission: ${why}.`);
      }
      const url = await this.storage.signedUrl(s.processedKey, { fileName: s.processedFileName, expiresIn: DOWNLOAD_URL_SECONDS, contentType: servedContentType(s.processedMime) });
      return { url, expiresIn: DOWNLOAD_URL_SECONDS, file: 'processed' };
    }
    const url = await this.storage.signedUrl(s.storageKey, { fileName: s.fileName, expiresIn: DOWNLOAD_URL_SECONDS, contentType: servedContentType(s.fileMime) });
    return { url, expiresIn: DOWNLOAD_URL_SECONDS, file: 'original' };
  }
}

/** The 404 of an unknown output name, with the names there are (the name is the client's: cut short). */
function outputMissing(s: Submission, name: string): string {
  const names = s.outputs.map((o) => o.name);
  const have = names.length > 0 ? names.join(', ') : s.status === 'processing' ? 'none yet, the processing is still running' : 'none';
  return `Output "${name.slice(0, 80)}" not found: this submission has no output of that name (outputs: ${have}).`;
}
