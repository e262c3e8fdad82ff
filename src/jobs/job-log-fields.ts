import type { Job } from './job.entity';

/**
 * What a job's log lines name it by. A pipeline's step logs under its pipeline's id (the one its
 * caller knows and asks about) with the step's name; its own row id is kept as `stepJobId`.
 */
export function jobLogFields(job: Pick<Job, 'id' | 'tool' | 'pipelineId' | 'stepName'>): Record<string, string> {
  if (!job.pipelineId) return { jobId: job.id, tool: job.tool };
  return { jobId: job.pipelineId, step: job.stepName ?? '', stepJobId: job.id, tool: job.tool };
}
