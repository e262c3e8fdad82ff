import type { Tool } from '../../generated/types';
import { type ToolDefinition as AnyToolDefinition, toolScopes } from './tool-definition';
import { TOOL_LIST } from './tool-list';

export type { ToolKind } from './tool-definition';

/** The slugs of the listed tools (`image-resize` | …). */
export type ToolSlug = (typeof TOOL_LIST)[number]['slug'];

/** A listed tool, seen from outside its folder (options untyped: they come from a request or a job row). */
export type ToolDefinition = AnyToolDefinition<ToolSlug>;

/** The tools by slug, from the list. */
export const TOOLS = Object.fromEntries(TOOL_LIST.map((tool) => [tool.slug, tool as ToolDefinition])) as Record<ToolSlug, ToolDefinition>;

export function findTool(slug: unknown): ToolDefinition | undefined {
  return typeof slug === 'string' && Object.prototype.hasOwnProperty.call(TOOLS, slug) ? TOOLS[slug as ToolSlug] : undefined;
}

/** The queues the listed tools use, each once: the workers start one consumer per queue. */
export function toolQueues(): { queue: string; kind: ToolDefinition['kind'] }[] {
  const byQueue = new Map<string, ToolDefinition['kind']>();
  for (const tool of TOOL_LIST) if (!byQueue.has(tool.queue)) byQueue.set(tool.queue, tool.kind);
  return [...byQueue].map(([queue, kind]) => ({ queue, kind }));
}

/** The catalogue entry, but `available`: that one is looked up per request (ToolAvailability). */
export function toToolView(tool: ToolDefinition, optionsSchema: object): Omit<Tool, 'available'> {
  return {
    slug: tool.slug,
    kind: tool.kind,
    queue: tool.queue,
    scope: toolScopes(tool)[0],
    scopes: toolScopes(tool),
    cost: tool.cost,
    options: optionsSchema as Tool['options'],
    outputFormats: [...tool.outputFormats],
    outputs: tool.outputs.map((o) => ({ name: o.name, formats: [...o.formats], description: o.description })),
    requires: [...tool.requires],
  };
}
