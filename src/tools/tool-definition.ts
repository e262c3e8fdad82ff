import type { MediaEngine } from '../media/media-engine';
import type { MediaOutput, ProbeResult } from '../media/media.types';
import type { ProgramCheckName } from './programs';

/** The kinds of input a tool takes (`any`: every kind the probe knows); the worker refuses an input of another kind before `run`. */
export type ToolKind = 'image' | 'video' | 'audio' | 'document' | 'any';

/** What a tool writes: a file of a kind other tools take, JSON data, or nothing. */
export type ToolOutputKind = Exclude<ToolKind, 'any'> | 'data' | 'none';

/** Whether a tool of this kind takes an input the probe (or the upload sniffer) found to be `inputKind`. */
export function takesKind(toolKind: ToolKind, inputKind: string): boolean {
  return toolKind === 'any' ? inputKind !== 'unknown' : inputKind === toolKind;
}

/** What a tool's `run` gets: its validated options and a local input file the probe has described. */
export interface ToolRunContext<Options> {
  media: MediaEngine;
  /** The fetched input, a local file. */
  input: string;
  /** Where the outputs go (the media layer creates it). */
  outDir: string;
  /** The input's file name without its extension: every output downloads as `<baseName>.<ext>` (a file that names another, like a WebVTT naming its sprite, uses it). */
  baseName: string;
  options: Options;
  /** The media layer's probe of `input`, already of the tool's kind. */
  probe: ProbeResult;
  /** 0..100; the worker writes it to the job row at most every 2 points or second. */
  onProgress: (percent: number) => void;
}

/** One written file of a run, with what the tool knows of it beyond the media layer's description. */
export interface ToolOutput extends MediaOutput {
  /** Shown as is in this output's entry of `result.outputs` (e.g. a storyboard's tile geometry); every key must be declared in the contract's `JobOutput`. */
  details?: Record<string, unknown>;
}

/**
 * What a run produced. `output` is the main file: `result.downloadUrl` and `result.outputs.output`,
 * its format, size and dimensions the top-level `result` fields. `outputs` are further files under
 * their own names (`result.outputs.<name>`, names `^[a-z][a-z0-9-]{0,31}$`, never `output`), each
 * stored, signed, expired and deleted with the main one. A tool that writes no file (media-info)
 * returns neither: the result then has `downloadUrl`, `outputFormat` and `outputSize` null and
 * `outputs` empty, and carries what it found in `details`.
 */
export interface ToolRun {
  output?: ToolOutput;
  outputs?: Record<string, ToolOutput>;
  /** `result.message` of the job; absent when the tool has none (audio-compress). */
  message?: string;
  /**
   * The tool's own metadata, merged into the job's `result` (e.g. a placeholder, a dominant colour);
   * every key must be declared in the contract's `JobResult`.
   */
  details?: Record<string, unknown>;
}

/** A file a tool's jobs write, as `GET /v1/tools` lists it. */
export interface ToolOutputSpec {
  /** `output` for the main one. */
  name: string;
  formats: readonly string[];
  description: string;
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
  /**
   * The kind of file it writes, for a pipeline step that reads its output (src/tools/pipeline-plan.ts):
   * `data` (JSON no tool reads) or `none` (no file); a function when the options decide it.
   * Default: its input `kind` (an image tool writes an image).
   */
  outputKind?: ToolOutputKind | ((options: Options) => ToolOutputKind);
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
  /** The main output's formats (`[]` for a tool that writes no file). */
  outputFormats: readonly string[];
  /** Every file its jobs write, the main one (`output`) first; `[]` for none. Default: the main output only, in `outputFormats`. */
  outputs: readonly ToolOutputSpec[];
  limits: ToolLimits;
  /**
   * The programs beyond Node it runs (src/tools/programs.ts): while one is missing, the tool is
   * `available: false` and its jobs are refused (503 `tool_unavailable`). Default: none (sharp is a dependency).
   */
  requires: readonly ProgramCheckName[];
  /** Rules the JSON Schema cannot state; a failure is 400 `validation_failed` at that path. */
  extraCheck?: (options: Record<string, unknown>) => { path: string; message: string } | undefined;
  run: (ctx: ToolRunContext<Options>) => Promise<ToolRun>;
}

/** Every scope that may submit the tool, the first one being the one the catalogue lists as `scope`. */
export function toolScopes(tool: Pick<ToolDefinition, 'scope'>): string[] {
  return typeof tool.scope === 'string' ? [tool.scope] : [...tool.scope];
}

/** An output's download name: `<baseName>.<ext>` (jpeg → jpg, tiff → tif). */
export function fileNameFor(baseName: string, format: string): string {
  return `${baseName}.${{ jpeg: 'jpg', tiff: 'tif' }[format] ?? format}`;
}

/** The name of every tool's main output in `result.outputs` and in the catalogue. */
export const MAIN_OUTPUT = 'output';

/** A tool's definition; `charge` defaults to the fixed listed `cost`, `outputs` to the main output alone, `requires` to none. */
export function defineTool<Slug extends string, Options>(
  tool: Omit<ToolDefinition<Slug, Options>, 'charge' | 'outputs' | 'requires'> & {
    charge?: (options: Options) => number;
    outputs?: readonly ToolOutputSpec[];
    requires?: readonly ProgramCheckName[];
  },
): ToolDefinition<Slug, Options> {
  const outputs = tool.outputs ?? [{ name: MAIN_OUTPUT, formats: tool.outputFormats, description: 'The converted file.' }];
  return { ...tool, outputs, requires: tool.requires ?? [], charge: tool.charge ?? (() => tool.cost) };
}
