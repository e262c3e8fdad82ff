import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { FileKind } from '../common/file-sniffer';
import { bigintToNumber } from '../database/transformers';

/** A file put aside for 24 h to be used as a job's `input.fileId`. */
@Entity('uploads')
export class Upload {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

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
