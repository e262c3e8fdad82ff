import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaEngine } from '../media/media-engine';
import { takesKind, type ToolDefinition, type ToolOutput, type ToolRun } from './tool-definition';

/**
 * For a tool's unit tests: a temp directory for inputs, and `run`, which probes the input with the
 * real media layer and runs the tool on it the way the worker does (sharp and ffmpeg, no mocks).
 */
export class ToolTestKit {
  readonly media = new MediaEngine();
  dir = '';

  async setUp(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'dropline-tool-'));
  }

  async tearDown(): Promise<void> {
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  /**
   * `output` is the main output; reading it throws when the tool wrote none (media-info: read
   * `details`, or `written` for what the run returned as is).
   */
  async run<Options>(
    tool: ToolDefinition<string, Options>,
    input: string,
    options: Options,
    baseName = 'input',
  ): Promise<ToolRun & { output: ToolOutput; written: ToolRun; progress: number[]; outDir: string }> {
    const probe = await this.media.probe(input);
    if (!takesKind(tool.kind, probe.kind)) throw new Error(`fixture ${input} is ${probe.kind}, not ${tool.kind}`);
    const progress: number[] = [];
    const outDir = await mkdtemp(join(this.dir, `${tool.slug}-out-`));
    const run = await tool.run({ media: this.media, input, outDir, baseName, options, probe, onProgress: (p) => progress.push(p) });
    const { output, ...rest } = run;
    return Object.defineProperty({ ...rest, written: run, progress, outDir }, 'output', {
      get: () => output ?? fail(new Error(`${tool.slug} wrote no main output`)),
    }) as ToolRun & { output: ToolOutput; written: ToolRun; progress: number[]; outDir: string };
  }

  /** What the run returned as is, for a tool that may write no file (media-info: its `details`). */
  async runTool<Options>(tool: ToolDefinition<string, Options>, input: string, options: Options): Promise<ToolRun> {
    return (await this.run(tool, input, options)).written;
  }
}

function fail(err: Error): never {
  throw err;
}
