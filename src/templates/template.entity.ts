import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Account } from '../accounts/account.entity';
import type { PipelineStepSpec } from '../tools/pipeline-plan';

/** A saved pipeline of an account: named steps that a job (`template`) or a drop (`processWith`) runs. */
@Entity('templates')
@Index('templates_account_created_idx', { synchronize: false })
export class Template {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** Schema only (the migration's foreign key): repositories never load it. */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'templates_account_id_fkey' })
  account?: Account;

  @Column('text')
  name: string;

  /** As the client wrote them, in their order (`json`, not `jsonb`, which sorts keys); checked by planPipeline when saved and again when run. */
  @Column('json')
  steps: Record<string, PipelineStepSpec>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
