import type { JobOutput, Job as JobView } from '../../generated/types';
import { contentTypeOf } from '../media/content-types';
import { MAIN_OUTPUT } from '../tools/tool-definition';
import type { Job, StoredJobResult } from './job.entity';

export { RESULT_URL_SECONDS } from './job-outputs';

/**
 * The API shape of a job; `urls` (by output name, `output` the main one) are passed in because they
 * are signed at each read (signOutputs). Once retention removed the outputs (docs/retention.md) the
 * result stays, with `expiredAt` and no URLs. A tool that wrote no file has a result without any.
 */
export function toJobView(job: Job, urls: Record<string, string> = {}): JobView {
  const r = job.result;
  const expiredAt = job.outputExpiredAt ?? null;
  const downloadUrl = urls[MAIN_OUTPUT];
  return {
    id: job.id,
    tool: job.tool,
    state: job.state,
    progress: job.progress,
    result:
      job.state === 'completed' && r && (downloadUrl || expiredAt || !job.outputKey)
        ? {
            // A tool that only reports (media-info) converted nothing.
            status: job.outputKey ? 'converted' : 'done',
            outputFormat: r.outputFormat ?? null,
            downloadUrl: expiredAt || !downloadUrl ? null : downloadUrl,
            expiredAt: expiredAt?.toISOString() ?? null,
            outputSize: r.outputSize ?? null,
            outputs: outputsView(job, r, expiredAt ? {} : urls),
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

/** `result.outputs`: the main output under `output` (from the result's top-level fields), then the further ones. */
export function outputsView(job: Job, r: StoredJobResult, urls: Record<string, string>): Record<string, JobOutput> {
  const outputs: Record<string, JobOutput> = {};
  if (job.outputKey && r.outputFormat && r.outputFileName && r.outputSize !== undefined) {
    outputs[MAIN_OUTPUT] = {
      downloadUrl: urls[MAIN_OUTPUT] ?? null,
      contentType: contentTypeOf(r.outputFormat),
      size: r.outputSize,
      fileName: r.outputFileName,
      format: r.outputFormat,
      ...(r.width !== undefined ? { width: r.width } : {}),
      ...(r.height !== undefined ? { height: r.height } : {}),
      ...(r.duration !== undefined ? { duration: r.duration } : {}),
      ...(r.bitrate !== undefined ? { bitrate: r.bitrate } : {}),
      ...r.outputDetails,
    };
  }
  for (const [name, o] of Object.entries(r.outputs ?? {})) {
    outputs[name] = {
      downloadUrl: urls[name] ?? null,
      contentType: contentTypeOf(o.format),
      size: o.size,
      fileName: o.fileName,
      format: o.format,
      ...(o.width !== undefined ? { width: o.width } : {}),
      ...(o.height !== undefined ? { height: o.height } : {}),
      ...(o.duration !== undefined ? { duration: o.duration } : {}),
      ...(o.bitrate !== undefined ? { bitrate: o.bitrate } : {}),
      ...o.details,
    };
  }
  return outputs;
}
