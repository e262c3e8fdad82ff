import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type WebhookEventType = 'submission.created' | 'submission.processed' | 'submission.scanned' | 'submission.quarantined' | 'job.completed' | 'job.failed';

export interface WebhookAttemptRecord {
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One event to one URL, with every attempt at delivering it. */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

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

  @Column('text')
  status: 'pending' | 'succeeded' | 'failed';

  @Column('jsonb')
  attempts: WebhookAttemptRecord[];

  @Column({ type: 'timestamptz', name: 'next_attempt_at', precision: 3, nullable: true })
  nextAttemptAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
