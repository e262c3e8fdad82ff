import { MAIN_OUTPUT } from '../../tools/tool-definition';

/**
 * Pure rules of jobs with steps (docs/adr/0006-pipelines.md), shared by the pipeline's end
 * (AdvancePipeline), its API view and a drop's record of a template's run.
 */

/** Error codes of a step that did not fail on its own account: the pipeline's error names another step. */
const NOT_ITS_OWN = new Set(['upstream_failed', 'canceled']);

interface StepOutcome {
  stepName?: string | null;
  state: string;
  errorCode: string | null;
}

/** The step a failed pipeline failed because of: the first (in the order given) that failed on its own, else the first that failed. */
export function failingStep<T extends StepOutcome>(inOrder: readonly T[]): T | undefined {
  return inOrder.find((s) => s.state === 'failed' && !NOT_ITS_OWN.has(s.errorCode ?? '')) ?? inOrder.find((s) => s.state === 'failed');
}

/** A step's file as the pipeline names it: its main output by the step's name, a further one `<step>.<output>`. */
export function stepOutputName(stepName: string, output: string): string {
  return output === MAIN_OUTPUT ? stepName : `${stepName}.${output}`;
}
