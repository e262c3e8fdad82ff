import type { MediaRepository } from '../media/media.repository';
import type { MediaOutput, ProbeResult } from '../media/media.types';

/** The kinds of input a tool takes (`any`: every media kind); the worker refuses an input of another kind before `run`. */
export type ToolKind = 'image' | 'video' | 'audio' | 'any';

/** Whether a tool of this kind takes an input the probe (or the upload sniffer) found to be `inputKind`. */
export function takesKind(toolKind: ToolKind, inputKind: string): boolean {
  return toolKind === 'any' ? inputKind !== 'unknown' : inputKind === toolKind;
}

/** What a tool's `run` gets: its validated options and a local input file the probe has described. */
export interface ToolRunContext<Options> {
  media: MediaRepository;
  /** The fetched input, a local file. */
  input: string;
  /** Where the output goes (the media layer creates it). */
  outDir: string;
  options: Options;
  /** The media layer's probe of `input`, already of the tool's kind. */
  probe: ProbeResult;
  /** 0..100; the worker writes it to the job row at most every 2 points or second. */
  onProgress: (percent: number) => void;
}

export interface ToolRun {
  /** The file it wrote; absent for a tool whose whole result is `details` (media-info: no download). */
  output?: MediaOutput;
  /** `result.message` of the job; absent when the tool has none (audio-compress). */
  message?: string;
  /**
   * The tool's own metadata, merged into the job's `result` (e.g. a placeholder, a dominant colour);
   * every key must be declared in the contract's `JobResult`.
   */
  details?: Record<string, unknown>;
}

/** Limits a job of this tool runs under, as the media layer enforces them (stated for the catalogue and the docs). */
export interface ToolLimits {
  /** Wall-clock limit of the conversion; past it the job fails with `timeout`. */
  timeLimitMs: number;
  /** Largest input in pixels (width × height, × frames for animations), when it applies. */
  maxInputPixels?: number;
}

/**
 * One tool, everything the API and the workers need of it: the catalogue (`GET /v1/tools`), the
 * validation of its options (the named schema of openapi.yaml, plus `extraCheck`), its scope, its
 * queue, its price, and `run` over the media layer. Each tool lives in `src/tools/<slug>/` and is
 * listed once in tool-list.ts (docs/adding-a-tool.md).
 */
export interface ToolDefinition<Slug extends string = string, Options = Record<string, any>> {
  slug: Slug;
  kind: ToolKind;
  /** The BullMQ queue its jobs go to (QUEUES in src/queue): one worker per queue. */
  queue: string;
  /** The API-key scope that may submit it, or several: a key with any one of them may (toolScopes). */
  scope: string | readonly string[];
  /** The listed price in credits (`GET /v1/tools`). */
  cost: number;
  /** The credits one job with these options costs; `cost` for every tool whose price does not depend on them. */
  charge: (options: Options) => number;
  /** The component schema of its options in openapi.yaml (its `<Tool>JobCreate` variant of JobCreate refers to it). */
  optionsSchema: string;
  outputFormats: readonly string[];
  limits: ToolLimits;
  /** Rules the JSON Schema cannot state; a failure is 400 `validation_failed` at that path. */
  extraCheck?: (options: Record<string, unknown>) => { path: string; message: string } | undefined;
  run: (ctx: ToolRunContext<Options>) => Promise<ToolRun>;
}

/** Every scope that may submit the tool, the first one being the one the catalogue lists as `scope`. */
export function toolScopes(tool: Pick<ToolDefinition, 'scope'>): string[] {
  return typeof tool.scope === 'string' ? [tool.scope] : [...tool.scope];
}

/** A tool's definition; `charge` defaults to the fixed listed `cost`. */
export function defineTool<Slug extends string, Options>(
  tool: Omit<ToolDefinition<Slug, Options>, 'charge'> & { charge?: (options: Options) => number },
): ToolDefinition<Slug, Options> {
  return { ...tool, charge: tool.charge ?? (() => tool.cost) };
}
