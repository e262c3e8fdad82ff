import type { Job } from '../jobs/job.entity';
import { failingStep, stepOutputName } from '../jobs/lifecycle/pipeline-rules';
import { contentTypeOf } from '../media/content-types';
import type { ProcessingError, SubmissionOutputFile } from './submission.entity';

/** What the end of a template's run reads of one step row. */
export type StepRow = Pick<Job, 'state' | 'outputKey' | 'outputKeys' | 'result' | 'errorCode' | 'errorMessage' | 'tool'> & { stepName?: string | null };

/**
 * The files a template's run made, in the steps' order: each completed step's main file under the
 * step's name, its further files under `<step>.<output>` (`storyboard.vtt`), as a pipeline job's
 * `result.outputs` names them. Steps that failed, were canceled or never ran wrote nothing kept.
 */
export function templateOutputs(steps: readonly StepRow[]): SubmissionOutputFile[] {
  const files: SubmissionOutputFile[] = [];
  for (const step of steps) {
    const r = step.result;
    if (step.state !== 'completed' || !r || !step.stepName) continue;
    if (step.outputKey && r.outputFileName && r.outputFormat) {
      files.push({ name: step.stepName, storageKey: step.outputKey, fileName: r.outputFileName, size: r.outputSize ?? 0, contentType: contentTypeOf(r.outputFormat) });
    }
    for (const [name, output] of Object.entries(r.outputs ?? {})) {
      const key = step.outputKeys?.[name];
      if (key) files.push({ name: stepOutputName(step.stepName, name), storageKey: key, fileName: output.fileName, size: output.size, contentType: contentTypeOf(output.format) });
    }
  }
  return files;
}

/**
 * Why a template's run did not complete, naming the step that failed (the steps after it are
 * `upstream_failed`, not the cause); the pipeline job's own error when no step says more.
 */
export function templateError(pipeline: Pick<Job, 'state' | 'errorCode' | 'errorMessage'>, steps: readonly StepRow[]): ProcessingError {
  const failed = failingStep(steps);
  const kept = 'The original file is kept, with the files of the steps that completed.';
  if (failed?.stepName) {
    return {
      code: failed.errorCode ?? 'processing_failed',
      message: `Step "${failed.stepName}" (${failed.tool}) failed: ${failed.errorMessage ?? 'the processing failed.'} ${kept}`,
    };
  }
  if (pipeline.state === 'canceled') return { code: 'canceled', message: `The template's run was canceled. ${kept}` };
  return { code: pipeline.errorCode ?? 'processing_failed', message: `${pipeline.errorMessage ?? "The template's run failed."} ${kept}` };
}
