import { type ToolDefinition, toolScopes } from './tool-definition';
import { article } from '../common/words';

/** At most this many steps in one job or template. */
export const MAX_PIPELINE_STEPS = 10;
/** A step's name: what `input` references, what names its output. */
export const STEP_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** What a client writes for one step (`steps.<name>` of a job or a template). */
export interface PipelineStepSpec {
  tool: string;
  options?: Record<string, unknown>;
  /** Another step's name: this step reads that step's output. Absent: the job's input. */
  input?: string;
}

/** One checked step, in an order where every step comes after the step it reads. */
export interface PlannedStep {
  name: string;
  tool: ToolDefinition;
  /** The options as the tool's schema keeps them (unknown keys dropped). */
  options: Record<string, unknown>;
  /** The step it reads, or null for the job's input. */
  input: string | null;
}

/** A pipeline that cannot run; `step` names the offending step (400 `invalid_pipeline`). */
export class PipelineError extends Error {
  constructor(
    readonly step: string | undefined,
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export interface PipelineTools {
  find(slug: string): ToolDefinition | undefined;
  /** Checks one step's options against its tool (throws the API's validation error); returns those kept. */
  options(tool: ToolDefinition, options: Record<string, unknown>, path: string): Record<string, unknown>;
}

/**
 * Checks a set of named steps and orders them: names, count, known tools, their options,
 * references that exist, no cycle, and a reader whose tool takes the kind its input step writes.
 * Pure: the tools and their option check are handed in.
 */
export function planPipeline(steps: Record<string, PipelineStepSpec>, tools: PipelineTools): PlannedStep[] {
  const names = Object.keys(steps);
  if (names.length === 0) throw new PipelineError(undefined, 'A pipeline needs at least one step.', 'body/steps');
  if (names.length > MAX_PIPELINE_STEPS) {
    throw new PipelineError(
      names[MAX_PIPELINE_STEPS],
      `A pipeline has at most ${MAX_PIPELINE_STEPS} steps; step "${names[MAX_PIPELINE_STEPS]}" is the ${MAX_PIPELINE_STEPS + 1}th.`,
      'body/steps',
    );
  }
  const planned = new Map<string, PlannedStep>();
  for (const name of names) {
    const path = `body/steps/${name}`;
    if (!STEP_NAME.test(name)) throw new PipelineError(name, `Step name "${name.slice(0, 40)}" must match ${STEP_NAME.source}.`, path);
    const spec = steps[name];
    const tool = tools.find(spec.tool);
    if (!tool) throw new PipelineError(name, `Step "${name}" names an unknown tool "${String(spec.tool).slice(0, 64)}".`, `${path}/tool`);
    const input = spec.input ?? null;
    if (input !== null && !Object.prototype.hasOwnProperty.call(steps, input)) {
      throw new PipelineError(name, `Step "${name}" reads "${String(input).slice(0, 40)}", which is not a step of this pipeline.`, `${path}/input`);
    }
    if (input === name) throw new PipelineError(name, `Step "${name}" reads its own output.`, `${path}/input`);
    planned.set(name, { name, tool, options: tools.options(tool, spec.options ?? {}, `${path}/options`), input });
  }
  const order = topological(planned);
  for (const step of order) {
    if (step.input === null) continue;
    const source = planned.get(step.input)!;
    const written = outputKindOf(source);
    if (!reads(step.tool, written)) {
      const what = written === 'none' ? 'no file' : `${article(written)} ${written} file`;
      throw new PipelineError(
        step.name,
        `Step "${step.name}" (${step.tool.slug}) takes ${article(step.tool.kind)} ${step.tool.kind} file; step "${source.name}" (${source.tool.slug}) writes ${what}.`,
        `body/steps/${step.name}/input`,
      );
    }
  }
  return order;
}

/** The first step, in order, whose tool's scope the key lacks. */
export function firstMissingScope(plan: readonly PlannedStep[], granted: readonly string[]): { step: string; scope: string } | undefined {
  const step = plan.find((s) => !toolScopes(s.tool).some((scope) => granted.includes(scope)));
  return step && { step: step.name, scope: toolScopes(step.tool)[0] };
}

/** What the whole pipeline costs: the sum of its steps' charges. */
export function pipelineCharge(plan: readonly PlannedStep[]): number {
  return plan.reduce((sum, step) => sum + step.tool.charge(step.options), 0);
}

/** The kind of file a step writes for the steps that read it. */
export function outputKindOf(step: Pick<PlannedStep, 'tool' | 'options'>): string {
  const kind = step.tool.outputKind;
  if (kind === undefined) return step.tool.kind;
  return typeof kind === 'function' ? kind(step.options) : kind;
}

function reads(tool: ToolDefinition, kind: string): boolean {
  if (kind === 'none' || kind === 'data') return false;
  return (tool.kind as string) === 'any' || tool.kind === kind;
}

/** Depth-first over the `input` links, declaration order kept where the links allow; a cycle is refused. */
function topological(steps: Map<string, PlannedStep>): PlannedStep[] {
  const done = new Set<string>();
  const order: PlannedStep[] = [];
  for (const start of steps.keys()) {
    const chain: string[] = [];
    let at: string | null = start;
    while (at !== null && !done.has(at)) {
      if (chain.includes(at)) {
        const cycle = chain.slice(chain.indexOf(at));
        throw new PipelineError(at, `Steps ${cycle.map((s) => `"${s}"`).join(' → ')} → "${at}" form a cycle.`, `body/steps/${at}/input`);
      }
      chain.push(at);
      at = steps.get(at)!.input;
    }
    for (const name of chain.reverse()) {
      done.add(name);
      order.push(steps.get(name)!);
    }
  }
  return order;
}
