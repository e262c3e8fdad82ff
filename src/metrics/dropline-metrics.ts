import { Counter, Gauge, Histogram } from 'prom-client';

/**
 * Dropline's own metrics, on prom-client's default registry next to the process
 * metrics. They count in the process that does the work: job and webhook metrics in whichever
 * process runs the workers (the API with WORKER_IN_PROCESS, else `start:worker`), intake in the API.
 */
export const jobsFinished = new Counter({
  name: 'dropline_jobs_total',
  help: 'Jobs that reached a final state, by tool (`pipeline` for a job with steps) and state (completed, failed, canceled)',
  labelNames: ['tool', 'state'] as const,
});

export const jobDuration = new Histogram({
  name: 'dropline_job_duration_seconds',
  help: 'Run time of finished jobs (start of the last attempt to the final state), by tool',
  labelNames: ['tool'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600],
});

export const webhookDeliveries = new Counter({
  name: 'dropline_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: succeeded, retrying, failed (given up)',
  labelNames: ['outcome'] as const,
});

export const intakeBytes = new Counter({
  name: 'dropline_intake_bytes_total',
  help: 'Bytes of files accepted and stored, by source (submission: drops; upload: /v1/uploads)',
  labelNames: ['source'] as const,
});

/**
 * Counts a job's final state; duration only for jobs that ran (a canceled job never started). A
 * pipeline is one job, counted once under `pipeline` (its row's `tool` is its first step's); its
 * steps are parts of it, not jobs of their own.
 */
export function recordJobFinished(job: {
  tool: string;
  state: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  steps?: string[] | null;
  pipelineId?: string | null;
}): void {
  if (job.pipelineId) return;
  const tool = job.steps ? 'pipeline' : job.tool;
  jobsFinished.inc({ tool, state: job.state });
  if (job.startedAt && job.finishedAt) jobDuration.observe({ tool }, Math.max(0, job.finishedAt.getTime() - job.startedAt.getTime()) / 1000);
}

/** Rows and files removed by retention, by kind: output, job, delivery, idempotency, tombstone, file, orphan_file. */
export const purgedTotal = new Counter({
  name: 'dropline_purged_total',
  help: 'Things removed by the retention purges and the storage reconciliation, by kind',
  labelNames: ['kind'] as const,
});

/** One run of a background sweep or purge that held its deployment-wide lock (ExclusiveSweeps). */
export const sweepDuration = new Histogram({
  name: 'dropline_sweep_duration_seconds',
  help: 'Duration of background sweeps and purges (one process per deployment runs each), by task',
  labelNames: ['task'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
});

/** Rows whose stored file the last reconciliation pass found missing. */
export const missingFiles = new Gauge({
  name: 'dropline_missing_files',
  help: 'Rows referencing a stored file that does not exist, found by the last storage reconciliation pass',
});
