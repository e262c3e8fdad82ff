import { Inject, Injectable, Logger } from '@nestjs/common';
import { ZipArchive } from 'archiver';
import type { Readable } from 'node:stream';
import type { Drop } from '../drops/drop.entity';
import { safeFileName } from '../storage/content-disposition';
import { ObjectNotFoundError, STORAGE, type StorageDriver } from '../storage/storage.driver';
import { ArchiveNames } from './archive-names';
import type { Submission } from './submission.entity';
import { SubmissionsRepository } from './submissions.repository';
import type { SubmissionFilters } from './submissions.service';
import { AppConfig } from '../config/config';
import { inArchive } from './scan-gate';
import { useNativeCrc32ForArchives } from './native-crc32';

useNativeCrc32ForArchives();

/** Rows read per query while the archive streams: memory stays flat whatever the drop holds. */
const PAGE = 100;

/**
 * `GET /v1/drops/{slug}/submissions/archive`: one ZIP of a drop's submissions, built while it is
 * sent. Entries are stored (media is compressed already), added one at a time so only one stored
 * file is open, and archiver's backpressure follows the client; archiver switches to ZIP64 past 4 GiB.
 */
@Injectable()
export class SubmissionsArchiveService {
  private readonly logger = new Logger(SubmissionsArchiveService.name);

  constructor(
    private readonly submissions: SubmissionsRepository,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly config: AppConfig,
  ) {}

  /** The archive stream; it errors (and the response is cut) if a stored file cannot be read. */
  stream(drop: Drop, filters: SubmissionFilters, processed: boolean): ZipArchive {
    const zip = new ZipArchive({ store: true });
    this.fill(zip, drop, filters, processed).catch((err) => {
      this.logger.error(`Archive of drop ${drop.id} failed: ${(err as Error).message}`);
      zip.destroy(err as Error);
    });
    return zip;
  }

  private async fill(zip: ZipArchive, drop: Drop, filters: SubmissionFilters, processed: boolean): Promise<void> {
    const names = new ArchiveNames();
    for await (const s of this.rows(drop, filters)) {
      if (!inArchive(s, this.config.SCAN_MODE)) continue; // quarantined (or, strict, not scanned yet)
      const useProcessed = processed && s.processedKey && s.processedFileName;
      // Names stored before today's rules (bidi controls) are sent by them all the same.
      const entries = [{ key: useProcessed ? s.processedKey! : s.storageKey, name: names.next(safeFileName(useProcessed ? s.processedFileName! : s.fileName)) }];
      // The template's files follow, each in its output's folder (output names are step names: safe as they are).
      for (const o of s.outputs) entries.push({ key: o.storageKey, name: names.nextIn(o.name, safeFileName(o.fileName)) });
      for (const entry of entries) {
        if (zip.destroyed) return; // the client went away
        const source = await this.readUnlessGone(entry.key);
        if (!source) continue;
        const added = entryWritten(zip);
        zip.append(source, { name: entry.name, date: s.createdAt });
        try {
          await added;
        } finally {
          source.destroy();
        }
      }
    }
    await zip.finalize();
  }

  /**
   * The file, or undefined when it went after its row was read: deleted, or quarantined (moved
   * away as its scan found malware) while the archive streamed. Either way it is not sent.
   */
  private async readUnlessGone(key: string): Promise<Readable | undefined> {
    try {
      return await this.storage.read(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
  }

  /** Oldest first, a page at a time, with the list's flag filters. */
  private async *rows(drop: Drop, filters: SubmissionFilters): AsyncGenerator<Submission> {
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await this.submissions.listInDropOldestFirst(drop.id, PAGE, after, filters);
      yield* page;
      if (page.length < PAGE) return;
      const last = page[page.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
    }
  }
}

/** Resolves when archiver has written the entry being appended; rejects if the archive errors or is closed first. */
function entryWritten(zip: ZipArchive): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      zip.off('entry', onEntry);
      zip.off('error', done);
      zip.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onEntry = () => done();
    const onClose = () => done(new Error('the archive was closed (client gone)'));
    zip.on('entry', onEntry);
    zip.on('error', done);
    zip.on('close', onClose);
  });
}
