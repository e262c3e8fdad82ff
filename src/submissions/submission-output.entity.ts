import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from '../database/transformers';
import { Submission } from './submission.entity';

/**
 * A file the drop's template (`processWith`) made of a submission. The submission owns its storage
 * key: deleted with it, never expired by age, seen by retention's reference checks.
 */
@Entity('submission_outputs')
@Index('submission_outputs_storage_key_idx', { synchronize: false })
export class SubmissionOutput {
  @PrimaryColumn('text', { name: 'submission_id' })
  submissionId: string;

  /** Schema only (the migration's foreign key): repositories never load it. */
  @ManyToOne(() => Submission, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'submission_id', foreignKeyConstraintName: 'submission_outputs_submission_id_fkey' })
  submission?: Submission;

  /** The step's name, or `<step>.<output>` for a step's further file (as a pipeline job's `result.outputs`). */
  @PrimaryColumn('text')
  name: string;

  /** The order of the submission's `outputs`: the pipeline's step order. */
  @Column('smallint')
  position: number;

  @Column('text', { name: 'storage_key' })
  storageKey: string;

  @Column('text', { name: 'file_name' })
  fileName: string;

  @Column('bigint', { transformer: bigintToNumber })
  size: number;

  @Column('text', { name: 'content_type' })
  contentType: string;
}
