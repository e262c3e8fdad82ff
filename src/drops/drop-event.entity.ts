import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Drop } from './drop.entity';

/** One line of a drop's audit log (drop-events.repository.ts). */
@Entity('drop_events')
@Index('drop_events_drop_at_idx', { synchronize: false })
export class DropEventRow {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'drop_id' })
  dropId: string;

  /** Schema only (the migration's foreign key): repositories never load it. */
  @ManyToOne(() => Drop, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'drop_id', foreignKeyConstraintName: 'drop_events_drop_id_fkey' })
  drop?: Drop;

  @Column('text')
  type: string;

  @Column('timestamptz', { default: () => 'now()' })
  at: Date;

  @Column('text', { name: 'actor_kind' })
  actorKind: string;

  @Column('text', { name: 'key_id', nullable: true })
  keyId: string | null;

  @Column('text')
  ip: string;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @Column('text', { name: 'submission_id', nullable: true })
  submissionId: string | null;

  @Column('jsonb', { default: () => "'{}'" })
  detail: Record<string, unknown>;
}
