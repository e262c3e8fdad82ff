import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../database/transformers';

export type DropKind = 'any' | 'image' | 'video' | 'audio' | 'document';

@Entity('drops')
export class Drop {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('text', { nullable: true })
  emoji: string | null;

  @Column('text', { name: 'accent_color', nullable: true })
  accentColor: string | null;

  @Column('boolean', { name: 'is_active' })
  isActive: boolean;

  @Column('text', { name: 'allowed_kinds' })
  allowedKinds: DropKind;

  @Column({ type: 'int', name: 'max_file_size_mb' })
  maxFileSizeMB: number;

  @Column('boolean', { name: 'require_sender_email' })
  requireSenderEmail: boolean;

  @Column('boolean', { name: 'require_message' })
  requireMessage: boolean;

  @Column('text', { name: 'auto_convert_to', nullable: true })
  autoConvertTo: string | null;

  @Column('boolean', { name: 'auto_compress' })
  autoCompress: boolean;

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

  @Column({ type: 'int', name: 'submission_count' })
  submissionCount: number;

  @Column('bigint', { name: 'total_bytes', transformer: bigintToNumber })
  totalBytes: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
