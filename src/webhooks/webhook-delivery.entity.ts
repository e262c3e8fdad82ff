import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../accounts/account.entity';

export type WebhookEventType = 'submission.created' | 'submission.processed' | 'submission.scanned' | 'submission.quarantined' | 'job.completed' | 'job.failed';

export interface WebhookAttemptRecord {
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One event to one URL, with every attempt at delivering it. */
@Entity('webhook_deliveries')
@Check('webhook_deliveries_status_check', `status IN ('pending', 'succeeded', 'failed')`)
@Index('webhook_deliveries_account_idx', { synchronize: false })
@Index('webhook_deliveries_event_key_idx', { synchronize: false })
@Index('webhook_deliveries_settled_idx', { synchronize: false })
@Index('webhook_deliveries_pending_idx', { synchronize: false })
@Index('webhook_deliveries_account_status_idx', { synchronize: false })
export class WebhookDelivery {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'webhook_deliveries_account_id_fkey' })
  account?: Account;

  @Column('text', { name: 'event_type' })
  eventType: WebhookEventType;

  @Column('text')
  url: string;

  /** The Standard Webhooks `webhook-id`: the same across retries and replays, for receivers to dedupe. */
  @Column('text', { name: 'message_id' })
  messageId: string;

  /** The exact JSON body that is signed and sent. */
  @Column('text')
  body: string;

  @Column('text', { default: 'pending' })
  status: 'pending' | 'succeeded' | 'failed';

  @Column('jsonb', { default: () => "'[]'" })
  attempts: WebhookAttemptRecord[];

  @Column({ type: 'timestamptz', name: 'next_attempt_at', precision: 3, nullable: true })
  nextAttemptAt: Date | null;

  /** One event, however often its cause is redelivered: a second insert with the same key records nothing. Not read back. */
  @Column({ type: 'text', name: 'event_key', nullable: true, select: false })
  eventKey?: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
