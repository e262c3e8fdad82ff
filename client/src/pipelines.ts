/**
 * Typed pipeline steps. The contract's `PipelineStep` takes any `options` object (a step's tool is
 * only known at run time there); these types tie each step's `options` to its tool's own schema,
 * as `JobCreate` does for a single-tool job, so a mistyped option does not compile.
 */
import type { JobCreate, PipelineJobCreate, TemplateJobCreate } from '../../generated/types';

/** A tool's slug, as `JobCreate['tool']` lists them. */
export type ToolName = JobCreate['tool'];

/** The options of one tool: those of its `JobCreate` variant. */
export type ToolOptionsOf<T extends ToolName> = NonNullable<Extract<JobCreate, { tool: T }>['options']>;

/** One step running tool `T`: its own options, and `input`, the step whose main output it reads (absent: the job's input). */
export interface PipelineStepOf<T extends ToolName, Input extends string = string> {
  tool: T;
  options?: ToolOptionsOf<T>;
  input?: Input;
}

/** Any one step, discriminated by `tool`: `{ tool: 'image-resize', options: { format: 'webp' } }` does not compile. */
export type TypedStep<Input extends string = string> = { [T in ToolName]: PipelineStepOf<T, Input> }[ToolName];

/** Named steps (at most 10 at run time), each typed by its tool. */
export type TypedSteps = Record<string, TypedStep>;

/** `POST /v1/jobs` with steps, each typed by its tool. */
export type TypedPipelineJobCreate = Omit<PipelineJobCreate, 'steps'> & { steps: TypedSteps };

/** What `createJobAndWait` submits: one tool, typed steps, or a saved template. */
export type JobBody = JobCreate | TypedPipelineJobCreate | TemplateJobCreate;

/**
 * Steps whose `input` references are checked too: each names another step of the same set.
 * Returns its argument; use it where the steps are written, e.g.
 * `createJobAndWait(client, { input, steps: pipelineSteps({ webp: {...}, small: { ..., input: 'webp' } }) })`.
 */
export function pipelineSteps<const Names extends string>(steps: { [N in Names]: TypedStep<NoInfer<Exclude<Names, N>>> }): TypedSteps {
  return steps;
}
