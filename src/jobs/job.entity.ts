import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ToolSlug } from '../tools/tool-registry';

export type JobState = 'queued' | 'running' | 'completed' | 'failed' | 'canceled';

/** What the worker learned about the output; the download URL is signed afresh at each read. */
export interface StoredJobResult {
  outputFormat: string;
  outputSize: number;
  outputFileName: string;
  message?: string;
  width?: number;
  height?: number;
  duration?: number;
  bitrate?: string;
}

@Entity('jobs')
export class Job {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** The key that submitted the job; null for a drop's auto-conversion (charged to the owner). */
  @Column({ type: 'text', name: 'api_key_id', nullable: true })
  apiKeyId: string | null;

  @Column('text')
  tool: ToolSlug;

  @Column('text')
  queue: string;

  @Column('text')
  state: JobState;

  @Column('int')
  progress: number;

  @Column('jsonb')
  input: { url?: string; fileId?: string };

  @Column('jsonb')
  options: Record<string, unknown>;

  @Column({ type: 'text', name: 'webhook_url', nullable: true })
  webhookUrl: string | null;

  @Column('int')
  cost: number;

  @Column({ type: 'jsonb', nullable: true })
  result: StoredJobResult | null;

  @Column({ type: 'text', name: 'output_key', nullable: true })
  outputKey: string | null;

  @Column({ type: 'text', name: 'error_code', nullable: true })
  errorCode: string | null;

  @Column({ type: 'text', name: 'error_message', nullable: true })
  errorMessage: string | null;

  @Column('boolean')
  refunded: boolean;

  /** Null until the queue has the job; the sweeper enqueues rows left null by a crash. */
  @Column({ type: 'timestamptz', name: 'enqueued_at', precision: 3, nullable: true })
  enqueuedAt: Date | null;

  /** Set when the job converts a drop submission (auto-conversion). */
  @Column({ type: 'text', name: 'submission_id', nullable: true })
  submissionId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'started_at', precision: 3, nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', name: 'finished_at', precision: 3, nullable: true })
  finishedAt: Date | null;
}
