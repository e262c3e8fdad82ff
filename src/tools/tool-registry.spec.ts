import { Contract } from '../contract/contract';
import { MEDIA_PROCESSORS } from '../jobs/media.processors';
import { TOOL_LIST } from './tool-list';
import { findTool, TOOLS, toolQueues } from './tool-registry';

/** The list is the only place a tool is named: the contract must describe exactly these, and a worker must consume each one's queue. */
describe('the tool list', () => {
  const contract = new Contract();
  const slugs = TOOL_LIST.map((t) => t.slug);

  it('holds each tool once, and the registry finds each by slug (and nothing else)', () => {
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const tool of TOOL_LIST) expect(findTool(tool.slug)).toBe(tool);
    expect(Object.keys(TOOLS)).toEqual(slugs);
    expect(findTool('toString')).toBeUndefined();
    expect(findTool(undefined)).toBeUndefined();
  });

  it('matches the contract: ToolSlug, the JobCreate variants and each options schema', () => {
    expect(contract.componentSchema('ToolSlug').enum).toEqual(slugs);
    expect(Object.keys(contract.componentSchema('JobCreate').discriminator.mapping)).toEqual(slugs);
    for (const tool of TOOL_LIST) {
      expect(contract.componentSchema(tool.optionsSchema)).toBeDefined();
      // The tool's JobCreate variant takes its options schema.
      const variant = contract.componentSchema(contract.componentSchema('JobCreate').discriminator.mapping[tool.slug].split('/').pop());
      expect(variant.properties.options.$ref).toBe(`#/components/schemas/${tool.optionsSchema}`);
      expect(contract.componentSchema('Tool').properties.kind.enum).toContain(tool.kind);
    }
  });

  it('prices each tool at its listed cost unless it says otherwise', () => {
    for (const tool of TOOL_LIST) expect(tool.charge({} as never)).toBe(tool.cost);
  });

  it('starts one media worker per queue the tools use', () => {
    expect(toolQueues().map((q) => q.queue)).toEqual(['image-standard-queue', 'video-standard-queue', 'audio-standard-queue', 'document-standard-queue']);
    expect(MEDIA_PROCESSORS.map((p) => p.name)).toEqual(toolQueues().map((q) => `MediaProcessor[${q.queue}]`));
  });
});
