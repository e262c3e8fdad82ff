import type { JobOutput, JobStep, Job as JobView } from '../../generated/types';
import type { Job } from './job.entity';
import { toJobView } from './job-views';
import { failingStep, stepOutputName } from './lifecycle/pipeline-rules';

/**
 * The API shape of a pipeline job (docs/adr/0006-pipelines.md) from its row and its steps' rows:
 * `steps` in the order given, `progress` their mean; once completed, `result.outputs` holds every
 * step's files (`<step>` for a step's main output, `<step>.<name>` for a further one) and the
 * single-file fields are null. `urls`: each step's signed download URLs by output name.
 */
export function toPipelineView(job: Job, stepRows: Job[], urls: Map<string, Record<string, string>>): JobView {
  const byName = new Map(stepRows.map((s) => [s.stepName!, s]));
  const ordered = (job.steps ?? []).map((name) => byName.get(name)).filter((s): s is Job => s !== undefined);
  const steps: Record<string, JobStep> = {};
  const outputs: Record<string, JobOutput> = {};
  let expiredAt: Date | null = null;
  for (const step of ordered) {
    const name = step.stepName!;
    // The step's result as the tool alone would answer it (its own fields included), and its files.
    const result = toJobView(step, urls.get(step.id) ?? {}).result;
    const own = result?.outputs ?? {};
    if (step.outputExpiredAt && (!expiredAt || step.outputExpiredAt > expiredAt)) expiredAt = step.outputExpiredAt;
    for (const [output, file] of Object.entries(own)) outputs[stepOutputName(name, output)] = file;
    steps[name] = {
      tool: step.tool,
      input: step.stepInput ?? null,
      state: step.state,
      progress: step.state === 'completed' ? 100 : step.progress,
      cost: step.cost,
      startedAt: step.startedAt?.toISOString() ?? null,
      finishedAt: step.finishedAt?.toISOString() ?? null,
      error: step.errorCode ? { code: step.errorCode as NonNullable<JobStep['error']>['code'], message: step.errorMessage ?? '' } : null,
      result,
      outputs: own,
    };
  }
  const base = toJobView({ ...job, result: null, errorCode: null }, {});
  const progress = ordered.length === 0 ? job.progress : Math.floor(ordered.reduce((sum, s) => sum + (s.state === 'completed' ? 100 : s.progress), 0) / ordered.length);
  const failedStep = failingStep(ordered);
  return {
    ...base,
    progress: job.state === 'completed' ? 100 : progress,
    result:
      job.state === 'completed' ? { status: 'converted', outputFormat: null, downloadUrl: null, expiredAt: expiredAt?.toISOString() ?? null, outputSize: null, outputs } : null,
    error: job.errorCode
      ? {
          code: job.errorCode as NonNullable<JobView['error']>['code'],
          message: job.errorMessage ?? '',
          ...(failedStep ? { step: failedStep.stepName! } : {}),
        }
      : null,
    steps,
  };
}
