import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ToolSlug } from '../tools/tool-registry';

/**
 * What the job reads: a URL, or a stored object (an upload, a drop submission) named by its
 * storage key and file name, copied in at admission so the worker reads no other domain's table.
 */
export interface JobInput {
  url?: string;
  fileId?: string;
  storageKey?: string;
  fileName?: string;
}

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

  /** The BullMQ prefix of the deployment that queued the job: its sweeper reconciles only these. */
  @Column({ type: 'text', name: 'queue_prefix', nullable: true })
  queuePrefix: string | null;

  @Column('text')
  state: JobState;

  @Column('int')
  progress: number;

  @Column('jsonb')
  input: JobInput;

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

  /** When retention removed the output (docs/retention.md): the job still reads, without a download URL. */
  @Column({ type: 'timestamptz', name: 'output_expired_at', precision: 3, nullable: true })
  outputExpiredAt: Date | null;

  @Column({ type: 'text', name: 'error_code', nullable: true })
  errorCode: string | null;

  @Column({ type: 'text', name: 'error_message', nullable: true })
  errorMessage: string | null;

  @Column('boolean')
  refunded: boolean;

  /** Null until the queue has the job; the sweeper enqueues rows left null by a crash. */
  @Column({ type: 'timestamptz', name: 'enqueued_at', precision: 3, nullable: true })
  enqueuedAt: Date | null;

  /** An auto-conversion admitted over the owner's in-flight limit: paid, but not queued until a slot frees. */
  @Column({ type: 'boolean', name: 'waiting_for_slot', default: false })
  waitingForSlot: boolean;

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
