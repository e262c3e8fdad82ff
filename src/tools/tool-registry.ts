import type { Tool } from '../../generated/types';
import { QUEUES } from '../queue/queue.module';

export type ToolSlug = 'image-resize' | 'image-convert' | 'video-convert' | 'audio-compress';
export type ToolKind = 'image' | 'video' | 'audio';

/**
 * The tool catalogue: one entry per tool with everything the API and the workers need.
 * Options are validated against the named schema of openapi.yaml; `extraCheck` holds the
 * rules a JSON Schema cannot state.
 */
export interface ToolDefinition {
  slug: ToolSlug;
  kind: ToolKind;
  queue: string;
  scope: string;
  cost: number;
  optionsSchema: string;
  outputFormats: readonly string[];
  extraCheck?: (options: Record<string, unknown>) => { path: string; message: string } | undefined;
}

export const TOOLS: Record<ToolSlug, ToolDefinition> = {
  'image-resize': {
    slug: 'image-resize',
    kind: 'image',
    queue: QUEUES.image,
    scope: 'image:write',
    cost: 1,
    optionsSchema: 'ImageResizeOptions',
    outputFormats: ['same as input: jpeg, png, webp, avif, tiff, gif'],
  },
  'image-convert': {
    slug: 'image-convert',
    kind: 'image',
    queue: QUEUES.image,
    scope: 'image:write',
    cost: 1,
    optionsSchema: 'ImageConvertOptions',
    outputFormats: ['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'],
  },
  'video-convert': {
    slug: 'video-convert',
    kind: 'video',
    queue: QUEUES.video,
    scope: 'video:write',
    cost: 5,
    optionsSchema: 'VideoConvertOptions',
    outputFormats: ['mp4', 'webm', 'mov'],
  },
  'audio-compress': {
    slug: 'audio-compress',
    kind: 'audio',
    queue: QUEUES.audio,
    scope: 'audio:write',
    cost: 2,
    optionsSchema: 'AudioCompressOptions',
    outputFormats: ['mp3'],
    extraCheck: (options) => {
      if (options.bitrate === undefined) return undefined;
      // A string like "128k" (the contract's pattern); anything else fails the range check.
      const kbps = typeof options.bitrate === 'string' ? Number.parseInt(options.bitrate, 10) : Number.NaN;
      return kbps >= 32 && kbps <= 320 ? undefined : { path: 'body/options/bitrate', message: 'must be between 32k and 320k' };
    },
  },
};

export function findTool(slug: unknown): ToolDefinition | undefined {
  return typeof slug === 'string' && Object.prototype.hasOwnProperty.call(TOOLS, slug) ? TOOLS[slug as ToolSlug] : undefined;
}

export function toToolView(tool: ToolDefinition, optionsSchema: object): Tool {
  return {
    slug: tool.slug,
    kind: tool.kind,
    queue: tool.queue,
    scope: tool.scope,
    cost: tool.cost,
    options: optionsSchema as Tool['options'],
    outputFormats: [...tool.outputFormats],
  };
}
