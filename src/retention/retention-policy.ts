import ms from 'ms';
import type { AppConfig } from '../config/config';
import type { OutputRetentionMs } from '../jobs/jobs.repository';

/**
 * How long a job's output is kept, per plan (docs/retention.md): free 24 h, pro 7 days, max 30
 * days — CloudConvert and Transloadit keep outputs 24 h. OUTPUT_RETENTION replaces all three.
 * Unsold plans (`bench`) keep the free plan's.
 */
export const OUTPUT_RETENTION_BY_PLAN: OutputRetentionMs = { free: ms('24h'), pro: ms('7d'), max: ms('30d') };

export function outputRetention(config: Pick<AppConfig, 'OUTPUT_RETENTION'>): OutputRetentionMs {
  const all = config.OUTPUT_RETENTION;
  return all === undefined ? OUTPUT_RETENTION_BY_PLAN : { free: all, pro: all, max: all };
}

/** A signed download URL lives at most 7 days (S3's limit): a tombstone older than that is never asked about. */
export const TOMBSTONE_RETENTION_MS = ms('7d');
