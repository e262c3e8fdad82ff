import { Injectable } from '@nestjs/common';
import { MediaError } from '../media/media.errors';
import { MediaEngine } from '../media/media-engine';
import { takesKind, type ToolRun } from '../tools/tool-definition';
import { TOOLS, type ToolSlug } from '../tools/tool-registry';
import { article } from '../common/words';

export type { ToolRun } from '../tools/tool-definition';

/** Runs a listed tool over the media layer: the input must be of the tool's kind, then the tool's own `run`. */
@Injectable()
export class ToolRunner {
  constructor(private readonly media: MediaEngine) {}

  async run(slug: ToolSlug, input: string, outDir: string, baseName: string, options: Record<string, any>, onProgress: (p: number) => void): Promise<ToolRun> {
    const tool = TOOLS[slug];
    const probe = await this.media.probe(input);
    if (!takesKind(tool.kind, probe.kind)) {
      const what = probe.kind === 'unknown' ? 'not a media file' : `${article(probe.kind)} ${probe.kind} file`;
      throw new MediaError('unsupported_input', `${slug} needs ${needs(tool.kind)}; the input is ${what}.`);
    }
    return tool.run({ media: this.media, input, outDir, baseName, options, probe, onProgress });
  }
}

function needs(kind: string): string {
  return kind === 'any' ? 'an image, video, audio or document file' : `${article(kind)} ${kind} file`;
}
