import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { Template } from '../templates/template.entity';
import { bigintToNumber } from '../database/transformers';

export type DropKind = 'any' | 'image' | 'video' | 'audio' | 'document';

@Entity('drops')
@Unique('drops_slug_key', ['slug'])
@Check('drops_submission_count_check', 'submission_count >= 0')
@Check('drops_total_bytes_check', 'total_bytes >= 0')
@Index('drops_account_created_idx', { synchronize: false })
@Index('drops_process_with_idx', { synchronize: false })
export class Drop {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'drops_account_id_fkey' })
  account?: Account;

  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  @Column('text', { nullable: true })
  emoji: string | null;

  @Column('text', { name: 'accent_color', nullable: true })
  accentColor: string | null;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('text', { name: 'allowed_kinds', default: 'any' })
  allowedKinds: DropKind;

  @Column({ type: 'int', name: 'max_file_size_mb' })
  maxFileSizeMB: number;

  @Column('boolean', { name: 'require_sender_email', default: false })
  requireSenderEmail: boolean;

  @Column('boolean', { name: 'require_message', default: false })
  requireMessage: boolean;

  @Column('text', { name: 'auto_convert_to', nullable: true })
  autoConvertTo: string | null;

  @Column('boolean', { name: 'auto_compress', default: false })
  autoCompress: boolean;

  /** The template every arriving file runs through (`processWith`); the template's deletion clears it. */
  @Column('text', { name: 'process_with', nullable: true })
  processWith: string | null;

  /** Schema only (the migration's foreign key): repositories never load it. */
  @ManyToOne(() => Template, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'process_with', foreignKeyConstraintName: 'drops_process_with_fkey' })
  template?: Template | null;

  @Column('text', { name: 'webhook_url', nullable: true })
  webhookUrl: string | null;

  @Column({ type: 'timestamptz', name: 'expires_at', precision: 3, nullable: true })
  expiresAt: Date | null;

  /** scrypt hash (drop-password.ts); null: no password. Never leaves the service. */
  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash: string | null;

  @Column({ type: 'int', name: 'max_submissions', nullable: true })
  maxSubmissions: number | null;

  @Column({ type: 'int', name: 'max_total_mb', nullable: true })
  maxTotalMB: number | null;

  /** Lowercase, without the dot; null: any extension. */
  @Column('text', { name: 'allowed_extensions', array: true, nullable: true })
  allowedExtensions: string[] | null;

  /** After `expiresAt`, files are still taken (flagged late) until this instant. */
  @Column({ type: 'timestamptz', name: 'accept_late_until', precision: 3, nullable: true })
  acceptLateUntil: Date | null;

  @Column({ type: 'int', name: 'submission_count', default: 0 })
  submissionCount: number;

  @Column('bigint', { name: 'total_bytes', default: 0, transformer: bigintToNumber })
  totalBytes: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
