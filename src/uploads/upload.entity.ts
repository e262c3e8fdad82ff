import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../accounts/account.entity';
import type { FileKind } from '../common/file-sniffer';
import { bigintToNumber } from '../database/transformers';

/** A file put aside for 24 h to be used as a job's `input.fileId`. */
@Entity('uploads')
@Index('uploads_expires_idx', { synchronize: false })
@Index('uploads_storage_key_idx', { synchronize: false })
export class Upload {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'uploads_account_id_fkey' })
  account?: Account;

  @Column('text', { name: 'storage_key' })
  storageKey: string;

  @Column('text', { name: 'file_name' })
  fileName: string;

  @Column('bigint', { name: 'file_size', transformer: bigintToNumber })
  fileSize: number;

  @Column('text', { name: 'file_mime' })
  fileMime: string;

  @Column('text', { name: 'file_kind' })
  fileKind: FileKind;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'expires_at', precision: 3 })
  expiresAt: Date;
}
