import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { ApiKey } from '../auth/api-key.entity';
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
  /** The stored object's size in bytes where admission knew it (an upload): what a quote's estimate compares. */
  size?: number;
}

import type { JobState } from './lifecycle/job-states';
export type { JobState };

/** What the tool said of one stored output beyond the main one (`result.outputs.<name>`). */
export interface StoredJobOutput {
  format: string;
  size: number;
  fileName: string;
  width?: number;
  height?: number;
  duration?: number;
  bitrate?: string;
  details?: Record<string, unknown>;
}

/**
 * What the worker learned about the outputs; the download URLs are signed afresh at each read.
 * The main output's fields are absent for a tool that writes no file (media-info).
 */
export interface StoredJobResult {
  outputFormat?: string;
  outputSize?: number;
  outputFileName?: string;
  message?: string;
  width?: number;
  height?: number;
  duration?: number;
  bitrate?: string;
  /** The tool's own result metadata (ToolRun.details), shown as is in `result`. */
  details?: Record<string, unknown>;
  /** The main output's own metadata (ToolOutput.details), shown in `result.outputs.output`. */
  outputDetails?: Record<string, unknown>;
  /** The outputs beyond the main one, by name; their storage keys are the row's `outputKeys`. */
  outputs?: Record<string, StoredJobOutput>;
}

@Entity('jobs')
@Check('jobs_state_check', `state IN ('queued', 'running', 'completed', 'failed', 'canceled')`)
// Partial and descending indexes, made by the migrations: named here so the schema check knows them.
@Index('jobs_key_created_idx', { synchronize: false })
@Index('jobs_in_flight_idx', { synchronize: false })
@Index('jobs_unenqueued_idx', { synchronize: false })
@Index('jobs_sweep_idx', { synchronize: false })
@Index('jobs_waiting_idx', { synchronize: false })
@Index('jobs_consequences_pending_idx', { synchronize: false })
@Index('jobs_output_unstamped_idx', { synchronize: false })
@Index('jobs_output_expiry_idx', { synchronize: false })
@Index('jobs_finished_idx', { synchronize: false })
@Index('jobs_output_key_idx', { synchronize: false })
@Index('jobs_key_state_tool_idx', { synchronize: false })
@Index('jobs_key_tool_idx', { synchronize: false })
@Index('jobs_key_state_idx', { synchronize: false })
@Index('jobs_output_keys_idx', { synchronize: false })
@Index('jobs_live_output_keys_idx', { synchronize: false })
@Index('jobs_pipeline_idx', { synchronize: false })
@Index('jobs_run_history_idx', { synchronize: false })
export class Job {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { name: 'account_id' })
  accountId: string;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'jobs_account_id_fkey' })
  account?: Account;

  /** The key that submitted the job; null for a drop's auto-conversion (charged to the owner). */
  @Column({ type: 'text', name: 'api_key_id', nullable: true })
  apiKeyId: string | null;

  /** Schema only (the migrations' foreign key): repositories never load it. */
  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'jobs_api_key_id_fkey' })
  apiKey?: ApiKey | null;

  @Column('text')
  tool: ToolSlug;

  @Column('text')
  queue: string;

  /** The BullMQ prefix of the deployment that queued the job: its sweeper reconciles only these. */
  @Column({ type: 'text', name: 'queue_prefix', nullable: true })
  queuePrefix: string | null;

  @Column('text')
  state: JobState;

  @Column('int', { default: 0 })
  progress: number;

  @Column('jsonb')
  input: JobInput;

  @Column('jsonb', { default: () => "'{}'" })
  options: Record<string, unknown>;

  @Column({ type: 'text', name: 'webhook_url', nullable: true })
  webhookUrl: string | null;

  @Column('int')
  cost: number;

  @Column({ type: 'jsonb', nullable: true })
  result: StoredJobResult | null;

  @Column({ type: 'text', name: 'output_key', nullable: true })
  outputKey: string | null;

  /** The storage keys of the outputs beyond the main one, by output name (`result.outputs`); null for a single-output job. */
  @Column({ type: 'jsonb', name: 'output_keys', nullable: true })
  outputKeys?: Record<string, string> | null;

  /** When retention removed the output (docs/retention.md): the job still reads, without a download URL. */
  /** When retention will remove the output (stamped by the purge at the first run after the job finished). */
  @Column({ type: 'timestamptz', name: 'output_expires_at', precision: 3, nullable: true })
  outputExpiresAt?: Date | null;

  @Column({ type: 'timestamptz', name: 'output_expired_at', precision: 3, nullable: true })
  outputExpiredAt: Date | null;

  @Column({ type: 'text', name: 'error_code', nullable: true })
  errorCode: string | null;

  @Column({ type: 'text', name: 'error_message', nullable: true })
  errorMessage: string | null;

  @Column('boolean', { default: false })
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

  /** The worker run that holds the job (its lease); a run whose id no longer matches stops writing. */
  @Column({ type: 'text', name: 'run_id', nullable: true })
  runId?: string | null;

  /** The holding run's last heartbeat; past the lease the sweeper may hand the job to another run. */
  @Column({ type: 'timestamptz', name: 'run_heartbeat_at', precision: 3, nullable: true })
  runHeartbeatAt?: Date | null;

  /** A pipeline's step: the pipeline job it belongs to (docs/adr/0006-pipelines.md); null for a pipeline or a single-tool job. */
  @Column({ type: 'text', name: 'pipeline_id', nullable: true })
  pipelineId?: string | null;

  /** Schema only (the migration's foreign key): a pipeline's steps go with it. */
  @ManyToOne(() => Job, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'pipeline_id', foreignKeyConstraintName: 'jobs_pipeline_id_fkey' })
  pipeline?: Job | null;

  /** A step's name in its pipeline. */
  @Column({ type: 'text', name: 'step_name', nullable: true })
  stepName?: string | null;

  /** The step whose output a step reads; null when it reads the pipeline's input. */
  @Column({ type: 'text', name: 'step_input', nullable: true })
  stepInput?: string | null;

  /** A step waiting for the step it reads (or for its pipeline's slot): never enqueued while true. */
  @Column({ type: 'boolean', name: 'step_blocked', default: false })
  stepBlocked?: boolean;

  /** A pipeline job's step names, in the order the client gave them; null for any other job. */
  @Column({ type: 'jsonb', nullable: true })
  steps?: string[] | null;

  /** A finished job whose consequences (refund, webhook, submission update) are not all applied yet. */
  @Column({ type: 'boolean', name: 'consequences_pending', default: false })
  consequencesPending?: boolean;
}
