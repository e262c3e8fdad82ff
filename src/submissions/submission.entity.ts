import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Drop } from '../drops/drop.entity';
import type { FileKind } from '../common/file-sniffer';
import { bigintToNumber } from '../database/transformers';

export type SubmissionStatus = 'ready' | 'processing' | 'failed';
export type ScanStatus = 'unscanned' | 'pending' | 'clean' | 'infected' | 'failed';

@Entity('submissions')
@Check('submissions_status_check', `status IN ('ready', 'processing', 'failed')`)
@Index('submissions_drop_created_idx', { synchronize: false })
@Index('submissions_scan_pending', { synchronize: false })
@Index('submissions_storage_key_idx', { synchronize: false })
@Index('submissions_processed_key_idx', { synchronize: false })
@Index('submissions_drop_starred_idx', { synchronize: false })
@Index('submissions_drop_archived_idx', { synchronize: false })
export class Submission {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'drop_id' })
  dropId: string;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => Drop, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'drop_id', foreignKeyConstraintName: 'submissions_drop_id_fkey' })
  drop?: Drop;

  @Column({ type: 'text', name: 'sender_name', nullable: true })
  senderName: string | null;

  @Column({ type: 'text', name: 'sender_email', nullable: true })
  senderEmail: string | null;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  @Column('text', { name: 'file_name' })
  fileName: string;

  @Column('bigint', { name: 'file_size', transformer: bigintToNumber })
  fileSize: number;

  @Column('text', { name: 'file_mime' })
  fileMime: string;

  @Column('text', { name: 'file_kind' })
  fileKind: FileKind;

  /** Generated, never derived from user input. */
  @Column('text', { name: 'storage_key' })
  storageKey: string;

  @Column('text', { default: 'ready' })
  status: SubmissionStatus;

  @Column({ type: 'text', name: 'processed_key', nullable: true })
  processedKey: string | null;

  @Column({ type: 'text', name: 'processed_file_name', nullable: true })
  processedFileName: string | null;

  @Column({ type: 'text', name: 'processed_mime', nullable: true })
  processedMime: string | null;

  /** Why the automatic processing did not run (`insufficient_credits`) or failed; null otherwise. */
  @Column({ type: 'jsonb', name: 'processing_error', nullable: true })
  processingError: ProcessingError | null;

  @Column('boolean', { name: 'is_read', default: false })
  isRead: boolean;

  @Column('boolean', { name: 'is_starred', default: false })
  isStarred: boolean;

  @Column('boolean', { name: 'is_archived', default: false })
  isArchived: boolean;

  /** Arrived after the drop's `expiresAt`, within its `acceptLateUntil` grace. */
  @Column('boolean', { name: 'is_late', default: false })
  isLate: boolean;

  /** The malware scan (src/scanning, src/submissions/submission-scans.ts): `unscanned` when scanning is off. */
  @Column('text', { name: 'scan_status', default: 'unscanned' })
  scanStatus: ScanStatus;

  @Column({ type: 'text', name: 'scan_signature', nullable: true })
  scanSignature: string | null;

  @Column({ type: 'timestamptz', name: 'scanned_at', precision: 3, nullable: true })
  scannedAt: Date | null;

  /** The last scan attempt; the retry sweep takes the oldest pending first. */
  @Column({ type: 'timestamptz', name: 'scan_attempted_at', precision: 3, nullable: true })
  scanAttemptedAt?: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  /** Not a column: the files of the drop's template (table submission_outputs), read with the row in step order. */
  outputs: SubmissionOutputFile[];
}

/** One file a drop's template made of the submission (submission-output.entity.ts is its row). */
export interface SubmissionOutputFile {
  name: string;
  storageKey: string;
  fileName: string;
  size: number;
  contentType: string;
}

export interface ProcessingError {
  code: string;
  message: string;
}
