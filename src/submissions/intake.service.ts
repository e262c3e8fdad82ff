import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import type { FileKind } from '../common/file-sniffer';
import type { IncomingFile, MultipartForm } from '../common/multipart-form';
import { MB } from '../config/plans';
import { Contract, toDetails } from '../contract/contract';
import { Transactions } from '../database/transactions';
import type { Drop } from '../drops/drop.entity';
import { DropsRepository } from '../drops/drops.repository';
import { DropGate, type SenderAccess } from '../drops/drop-gate';
import { type DropEventActor, DropEventsRepository } from '../drops/drop-events.repository';
import { checkExtension, checkRoom, dropFull, isClosedAt, isLateAt, roomLeft } from '../drops/drop-limits';
import { SubmissionScans } from './submission-scans';
import { JobDispatch } from '../jobs/job-dispatch';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { storeFilePart } from '../storage/store-file-part';
import type { Job } from '../jobs/job.entity';
import { AutoConvertService } from './auto-convert.service';
import { submissionFileName } from './submission-file-name';
import { SubmissionEvents } from './submission-events';
import type { Submission } from './submission.entity';
import { intakeBytes } from '../metrics/dropline-metrics';
import { SubmissionsRepository } from './submissions.repository';
import { article } from '../common/words';

/** The refusals a drop's audit log records (`submission.refused`, `detail.code`). */
const REFUSALS = new Set<string>(['file_too_large', 'kind_not_allowed', 'drop_full', 'drop_paused', 'drop_expired', 'wrong_password']);

export const SENDER_FIELDS = ['senderName', 'senderEmail', 'message'] as const;
/** A file in storage and its sniffed type; `ext` is required (even when undefined) so no intake path forgets the extension rule. */
export type StoredFile = { storageKey: string; size: number; mime: string; kind: FileKind; ext: string | undefined };
export type SenderFields = Partial<Record<(typeof SENDER_FIELDS)[number], string>>;

/**
 * Public intake (docs/decisions.md §6), checks in order: drop exists (404), active (403), not expired
 * (410), sender fields sent before the file (400), size (413, while streaming), kind from the bytes
 * (415), then the whole form's sender fields, including those sent after the file (400, file removed).
 * The file streams straight to storage; a refused upload leaves neither file nor row. Then, in
 * one transaction, the drop's counters, the auto-conversion job (when the drop converts and the
 * owner can pay) and the submission row, born `processing` or `ready`; then the job is queued
 * and the webhook recorded.
 */
@Injectable()
export class IntakeService {
  private readonly logger = new Logger(IntakeService.name);

  constructor(
    private readonly drops: DropsRepository,
    private readonly submissions: SubmissionsRepository,
    private readonly transactions: Transactions,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly contract: Contract,
    private readonly autoConvert: AutoConvertService,
    private readonly dispatch: JobDispatch,
    private readonly events: SubmissionEvents,
    private readonly clock: Clock,
    private readonly gate: DropGate,
    private readonly scans: SubmissionScans,
    private readonly dropEvents: DropEventsRepository,
  ) {}

  /**
   * The drop a sender may send to right now, or the reason they may not. `access` (the sender's
   * password and address) is checked when given: the creations; a tus PATCH holds its upload URL.
   */
  async openDrop(slug: string, access?: SenderAccess): Promise<Drop> {
    const drop = await this.drops.findBySlug(slug);
    if (!drop) throw DomainError.notFound('Drop');
    if (access) await this.gate.admit(drop, access);
    if (!drop.isActive) throw new DomainError('drop_paused', 'This drop is paused and is not accepting files right now.');
    // Past expiresAt, a drop with a grace period (acceptLateUntil) still takes files, marked late.
    if (drop.expiresAt && isClosedAt(drop, this.clock.now())) {
      const until = drop.acceptLateUntil ?? drop.expiresAt;
      throw new DomainError('drop_expired', `This drop stopped accepting files on ${until.toISOString()}.`);
    }
    if (access) checkRoom(drop); // a PATCH in flight carries on; the submission's counter UPDATE has the last word
    return drop;
  }

  async receive(slug: string, form: MultipartForm, access: SenderAccess, actor?: DropEventActor): Promise<Submission> {
    const drop = await this.openDrop(slug, access);
    // The drop's room left (maxTotalMB) caps the stream like the file size limit, as a 409.
    const room = roomLeft(drop);
    const limit = Math.min(drop.maxFileSizeMB * MB, room);
    const over = () => (room < drop.maxFileSizeMB * MB ? dropFull(drop, 'size') : this.tooLarge(drop));
    const { fields, file } = await form.read({ maxFileBytes: limit, tooLarge: over, fileField: 'file' });
    if (!file) {
      throw DomainError.validation('The form has no file: send it in a part named "file".', [{ path: 'body/file', message: 'is required' }]);
    }
    checkExtension(drop, file.fileName);
    // Fields before the file are checked before a byte is stored: a malformed one answers at once.
    // A required one may still follow the file, so requirements wait for the whole form.
    this.checkSenderFormat(senderFields(fields));
    const stored = await this.storeFile(drop, file, limit, over);
    let sender: SenderFields;
    try {
      sender = senderFields({ ...fields, ...(await form.fieldsAfterFile()) });
      this.checkSenderFields(drop, sender);
    } catch (err) {
      await this.storage.delete(stored.storageKey);
      throw err;
    }
    return this.createFromStored(drop, sender, file.fileName, stored, actor);
  }

  /** 400 unless the sender fields match the contract's SubmissionForm and the drop's requirements. */
  checkSenderFields(drop: Drop, fields: SenderFields): void {
    this.checkSenderFormat(fields);
    const missing = [drop.requireSenderEmail && !fields.senderEmail ? 'senderEmail' : undefined, drop.requireMessage && !fields.message ? 'message' : undefined].filter(
      (f): f is string => Boolean(f),
    );
    if (missing.length > 0) {
      throw DomainError.validation(
        `This drop requires ${missing.join(' and ')}.`,
        missing.map((f) => ({ path: `body/${f}`, message: 'is required by this drop' })),
      );
    }
  }

  /** 400 unless the fields present match the contract's SubmissionForm (the drop's requirements aside). */
  private checkSenderFormat(fields: SenderFields): void {
    const validate = this.contract.schemaValidator('SubmissionForm');
    if (!validate({ ...fields, file: '' })) {
      const details = toDetails('body', validate.errors);
      throw DomainError.validation(`${details[0].path}: ${details[0].message}`, details);
    }
  }

  private storeFile(drop: Drop, file: IncomingFile, limit: number, over: () => DomainError): Promise<StoredFile> {
    return storeFilePart(this.storage, file, {
      maxBytes: limit,
      tooLarge: over,
      accept: (sniffed) => this.checkKind(drop, sniffed, file.fileName),
    });
  }

  /** 415 `kind_not_allowed` when the drop does not take files of the sniffed kind, or (allowedExtensions) of this extension and content. */
  checkKind(drop: Drop, sniffed: { mime: string; kind: FileKind; ext?: string }, fileName?: string): void {
    checkExtension(drop, fileName, sniffed);
    if (!kindAllowed(drop.allowedKinds, sniffed.kind)) {
      throw new DomainError('kind_not_allowed', `This drop accepts only ${drop.allowedKinds} files; this file is ${article(sniffed.kind)} ${sniffed.kind} (${sniffed.mime}).`);
    }
  }

  /**
   * The submission of a file already in storage (the single POST above, or a finished tus upload):
   * counters, conversion job and row, then the queue and the webhook. On a failed insert the file is removed.
   * `actor`: the sender, whose `submission.created` event commits with the row.
   */
  async createFromStored(drop: Drop, fields: SenderFields, fileName: string, stored: StoredFile, actor?: DropEventActor): Promise<Submission> {
    let recorded: { submission: Submission; conversion?: Job };
    try {
      recorded = await this.record(drop, fields, fileName, stored, actor);
    } catch (err) {
      await this.storage.delete(stored.storageKey);
      throw err;
    }
    const { submission, conversion } = recorded;
    intakeBytes.inc({ source: 'submission' }, stored.size);
    // The row is committed: from here on the file is the submission's and the sender gets a 201.
    // A queue that is down leaves the conversion to the job sweeper; a webhook that cannot be
    // recorded is logged. Neither undoes the submission.
    if (conversion) await this.dispatch.enqueueOrLeave(conversion);
    await this.events.created(drop, submission).catch((err: Error) => this.logger.error(`Submission ${submission.id} stored, but its webhook failed: ${err.message}`));
    this.scans.scanSoon(submission.id);
    return submission;
  }

  /** Counters, conversion job and row commit together; a drop deleted meanwhile is a 404. The stored file is the caller's. */
  record(drop: Drop, fields: SenderFields, fileName: string, stored: StoredFile, actor?: DropEventActor): Promise<{ submission: Submission; conversion?: Job }> {
    const storedName = submissionFileName(drop, fileName, stored.ext);
    return this.transactions.run(async (tx) => {
      const counted = await this.drops.addSubmission(tx, drop.id, stored.size);
      if (counted === 'gone') throw DomainError.notFound('Drop');
      if (counted === 'full') throw dropFull(drop, drop.maxSubmissions !== null && drop.submissionCount + 1 >= drop.maxSubmissions ? 'count' : 'size');
      const file = { id: newId('sub'), fileName: storedName, fileKind: stored.kind, fileMime: stored.mime, storageKey: stored.storageKey };
      const { job: conversion, refusal } = await this.autoConvert.admitIn(tx, drop, file);
      const submission = await this.submissions.insert(tx, {
        ...file,
        dropId: drop.id,
        senderName: fields.senderName ?? null,
        senderEmail: fields.senderEmail ?? null,
        message: fields.message ?? null,
        fileSize: stored.size,
        status: conversion ? 'processing' : 'ready',
        processingError: refusal ?? null,
        isLate: isLateAt(drop, this.clock.now()),
        scanStatus: this.scans.initialStatus(),
      });
      if (actor) await this.dropEvents.record(tx, drop.id, 'submission.created', actor, submission.id, { fileName: submission.fileName, fileSize: submission.fileSize });
      return { submission, conversion };
    });
  }

  /**
   * Records a sender's refusal in the drop's log, when the error is one (REFUSALS). It changes
   * nothing, so it has no transaction to join: one INSERT by slug after the answer is decided. A
   * failed write is logged, never the sender's error.
   */
  async recordRefusal(slug: string, actor: DropEventActor, err: unknown): Promise<void> {
    if (!(err instanceof DomainError) || !REFUSALS.has(err.code)) return;
    await this.dropEvents.recordRefusal(slug, actor, err.code).catch((e: Error) => this.logger.error(`Refusal of a submission to ${slug} not logged: ${e.message}`));
  }

  tooLarge(drop: Drop): DomainError {
    return new DomainError('file_too_large', `The file exceeds this drop's limit of ${drop.maxFileSizeMB} MB.`);
  }
}

/** The sender's fields, trimmed; blank ones count as absent. Other fields are ignored. */
export function senderFields(fields: Record<string, string>): SenderFields {
  const sender: SenderFields = {};
  for (const name of SENDER_FIELDS) {
    const value = fields[name]?.trim();
    if (value) sender[name] = value;
  }
  return sender;
}

function kindAllowed(allowed: Drop['allowedKinds'], kind: FileKind): boolean {
  return allowed === 'any' || allowed === kind;
}
