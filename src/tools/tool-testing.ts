import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaRepository } from '../media/media.repository';
import type { MediaOutput } from '../media/media.types';
import { takesKind, type ToolDefinition, type ToolRun } from './tool-definition';

/**
 * For a tool's unit tests: a temp directory for inputs, and `run`, which probes the input with the
 * real media layer and runs the tool on it the way the worker does (sharp and ffmpeg, no mocks).
 */
export class ToolTestKit {
  readonly media = new MediaRepository();
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

  /** A tool that writes a file: fails the test when it wrote none. */
  async run<Options>(tool: ToolDefinition<string, Options>, input: string, options: Options): Promise<ToolRun & { output: MediaOutput; progress: number[] }> {
    const run = await this.runTool(tool, input, options);
    if (!run.output) throw new Error(`${tool.slug} wrote no output`);
    return { ...run, output: run.output };
  }

  /** Any tool, also one whose result is only `details` (media-info). */
  async runTool<Options>(tool: ToolDefinition<string, Options>, input: string, options: Options): Promise<ToolRun & { progress: number[] }> {
    const probe = await this.media.probe(input);
    if (!takesKind(tool.kind, probe.kind)) throw new Error(`fixture ${input} is ${probe.kind}, not ${tool.kind}`);
    const progress: number[] = [];
    const outDir = await mkdtemp(join(this.dir, `${tool.slug}-out-`));
    const run = await tool.run({ media: this.media, input, outDir, options, probe, onProgress: (p) => progress.push(p) });
    return { ...run, progress };
  }
}
