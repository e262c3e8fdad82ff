import type { Job as JobView } from '../../generated/types';
import type { Job } from './job.entity';

/** How long a result's signed download URL stays valid. */
export const RESULT_URL_SECONDS = 3600;

/**
 * The API shape of a job; `downloadUrl` is passed in because it is signed at each read. Once
 * retention removed the output (docs/retention.md) the result stays, with `expiredAt` and no URL.
 * A tool that writes no file (media-info) has a result without URL from the start.
 */
export function toJobView(job: Job, downloadUrl?: string): JobView {
  const r = job.result;
  const expiredAt = job.outputExpiredAt ?? null;
  return {
    id: job.id,
    tool: job.tool,
    state: job.state,
    progress: job.progress,
    result:
      job.state === 'completed' && r && (downloadUrl || expiredAt || !job.outputKey)
        ? {
            status: 'converted',
            outputFormat: r.outputFormat,
            downloadUrl: expiredAt ? null : (downloadUrl ?? null),
            expiredAt: expiredAt?.toISOString() ?? null,
            outputSize: r.outputSize,
            ...(r.message !== undefined ? { message: r.message } : {}),
            ...(r.width !== undefined ? { width: r.width } : {}),
            ...(r.height !== undefined ? { height: r.height } : {}),
            ...(r.duration !== undefined ? { duration: r.duration } : {}),
            ...(r.bitrate !== undefined ? { bitrate: r.bitrate } : {}),
            ...r.details,
          }
        : null,
    error: job.errorCode ? { code: job.errorCode as NonNullable<JobView['error']>['code'], message: job.errorMessage ?? '' } : null,
    cost: job.cost,
    refunded: job.refunded,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    queue: job.queue,
  };
}
