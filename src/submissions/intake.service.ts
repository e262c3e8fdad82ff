import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { DataSource, Repository } from 'typeorm';
import { ApiError } from '../common/api-error';
import { newId } from '../common/ids';
import { type FileKind, sanitizeFileName } from '../common/file-sniffer';
import { MB } from '../config/plans';
import { Contract, toDetails } from '../contract/contract';
import { Drop } from '../drops/drop.entity';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { storeFilePart } from '../storage/store-file-part';
import { SubmissionEvents } from './submission-events';
import { Submission } from './submission.entity';

const SENDER_FIELDS = ['senderName', 'senderEmail', 'message'] as const;
type SenderFields = Partial<Record<(typeof SENDER_FIELDS)[number], string>>;
/** Room for the multipart envelope and text fields on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Public intake (PRODUCT.md §6), checks in order: drop exists (404), active (403), not expired
 * (410), required sender fields (400), size (413, while streaming), kind from the bytes (415).
 * The file streams straight to storage; a refused upload leaves neither file nor row.
 */
@Injectable()
export class IntakeService {
  private readonly logger = new Logger(IntakeService.name);

  constructor(
    @InjectRepository(Drop) private readonly drops: Repository<Drop>,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly contract: Contract,
    private readonly events: SubmissionEvents,
  ) {}

  /** The drop a sender may send to right now, or the reason they may not. */
  async openDrop(slug: string): Promise<Drop> {
    const drop = await this.drops.findOneBy({ slug });
    if (!drop) throw ApiError.notFound('Drop');
    if (!drop.isActive) throw ApiError.forbidden('drop_paused', 'This drop is paused and is not accepting files right now.');
    if (drop.expiresAt && drop.expiresAt.getTime() <= Date.now()) {
      throw new ApiError(HttpStatus.GONE, 'drop_expired', `This drop stopped accepting files on ${drop.expiresAt.toISOString()}.`);
    }
    return drop;
  }

  async receive(slug: string, request: FastifyRequest): Promise<Submission> {
    const drop = await this.openDrop(slug);
    if (!request.isMultipart()) {
      throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_media_type', 'Send the file as multipart/form-data.');
    }
    const limit = drop.maxFileSizeMB * MB;
    const declared = Number(request.headers['content-length']);
    if (declared > limit + MULTIPART_OVERHEAD) throw this.tooLarge(drop);

    const fields: SenderFields = {};
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        this.collectField(fields, part);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      this.checkSenderFields(drop, fields);
      return this.store(drop, fields, part, limit);
    }
    throw ApiError.validation('The form has no file: send it in a part named "file".', [{ path: 'body/file', message: 'is required' }]);
  }

  private collectField(fields: SenderFields, part: MultipartValue): void {
    if ((SENDER_FIELDS as readonly string[]).includes(part.fieldname) && typeof part.value === 'string' && part.value.trim() !== '') {
      fields[part.fieldname as keyof SenderFields] = part.value.trim();
    }
  }

  private checkSenderFields(drop: Drop, fields: SenderFields): void {
    const validate = this.contract.schemaValidator('SubmissionForm');
    if (!validate({ ...fields, file: '' })) {
      const details = toDetails('body', validate.errors);
      throw ApiError.validation(`${details[0].path}: ${details[0].message}`, details);
    }
    const missing = [
      drop.requireSenderEmail && !fields.senderEmail ? 'senderEmail' : undefined,
      drop.requireMessage && !fields.message ? 'message' : undefined,
    ].filter((f): f is string => Boolean(f));
    if (missing.length > 0) {
      throw ApiError.validation(`This drop requires ${missing.join(' and ')}.`, missing.map((f) => ({ path: `body/${f}`, message: 'is required by this drop' })));
    }
  }

  private async store(drop: Drop, fields: SenderFields, part: MultipartFile, limit: number): Promise<Submission> {
    const stored = await storeFilePart(this.storage, part, {
      maxBytes: limit,
      tooLarge: () => this.tooLarge(drop),
      accept: (sniffed) => {
        if (!kindAllowed(drop.allowedKinds, sniffed.kind)) {
          throw new ApiError(
            HttpStatus.UNSUPPORTED_MEDIA_TYPE,
            'kind_not_allowed',
            `This drop accepts only ${drop.allowedKinds} files; this file is ${article(sniffed.kind)} ${sniffed.kind} (${sniffed.mime}).`,
          );
        }
      },
    });
    const { storageKey, size } = stored;
    let submission: Submission;
    try {
      submission = await this.insert(drop, fields, part.filename, stored, storageKey, size);
    } catch (err) {
      await this.storage.delete(storageKey);
      throw err;
    }
    // The row is committed: from here on the file is the submission's. A failure of what follows
    // (recording the webhook, starting a conversion) used to delete the file under a live row,
    // leaving a submission whose download 404s. The sender's file is kept and acknowledged.
    try {
      return await this.events.created(drop, submission);
    } catch (err) {
      this.logger.error(`Submission ${submission.id} stored, but its follow-up failed: ${(err as Error).message}`);
      return submission;
    }
  }

  /** The row and the drop's counters move together; a drop deleted meanwhile is a 404. */
  private insert(drop: Drop, fields: SenderFields, fileName: string, sniffed: { mime: string; kind: FileKind }, storageKey: string, size: number) {
    return this.db.transaction(async (tx) => {
      const updated = await tx.query(
        'UPDATE drops SET submission_count = submission_count + 1, total_bytes = total_bytes + $2 WHERE id = $1 RETURNING id',
        [drop.id, size],
      );
      if (updated[0].length === 0) throw ApiError.notFound('Drop');
      const submission = tx.create(Submission, {
        id: newId('sub'),
        dropId: drop.id,
        senderName: fields.senderName ?? null,
        senderEmail: fields.senderEmail ?? null,
        message: fields.message ?? null,
        fileName: sanitizeFileName(fileName),
        fileSize: size,
        fileMime: sniffed.mime,
        fileKind: sniffed.kind,
        storageKey,
        status: 'ready',
        processedKey: null,
        processedFileName: null,
        processedMime: null,
        isRead: false,
        isStarred: false,
        isArchived: false,
      });
      await tx.insert(Submission, submission);
      return tx.findOneByOrFail(Submission, { id: submission.id });
    });
  }

  private tooLarge(drop: Drop): ApiError {
    return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'file_too_large', `The file exceeds this drop's limit of ${drop.maxFileSizeMB} MB.`);
  }
}

function kindAllowed(allowed: Drop['allowedKinds'], kind: FileKind): boolean {
  return allowed === 'any' || allowed === kind;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
