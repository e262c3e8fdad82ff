import { firstMissingScope, MAX_PIPELINE_STEPS, pipelineCharge, PipelineError, type PipelineStepSpec, type PipelineTools, planPipeline } from './pipeline-plan';
import { defineTool } from './tool-definition';
import { findTool } from './tool-registry';

const tools: PipelineTools = { find: findTool, options: (_tool, options) => options };

function refusal(steps: Record<string, PipelineStepSpec>, with_: PipelineTools = tools): PipelineError {
  try {
    planPipeline(steps, with_);
  } catch (err) {
    if (err instanceof PipelineError) return err;
    throw err;
  }
  throw new Error('the pipeline was accepted');
}

describe('planPipeline', () => {
  it('orders the steps so each comes after the step it reads, declaration order kept otherwise', () => {
    const plan = planPipeline(
      {
        small: { tool: 'image-resize', options: { width: 100 }, input: 'webp' },
        webp: { tool: 'image-convert', options: { format: 'webp' } },
        audio: { tool: 'audio-compress', options: { format: 'mp3' } },
      },
      tools,
    );
    expect(plan.map((s) => [s.name, s.input])).toEqual([
      ['webp', null],
      ['small', 'webp'],
      ['audio', null],
    ]);
    expect(pipelineCharge(plan)).toBe(1 + 1 + 2); // image-convert, image-resize, audio-compress
  });

  it('a cycle, a reference to no step and a step reading itself are refused, naming the step', () => {
    expect(refusal({ a: { tool: 'image-resize', input: 'b' }, b: { tool: 'image-resize', input: 'a' } })).toMatchObject({
      step: 'a',
      message: expect.stringContaining('cycle'),
    });
    expect(refusal({ a: { tool: 'image-resize', input: 'ghost' } })).toMatchObject({ step: 'a', path: 'body/steps/a/input' });
    expect(refusal({ a: { tool: 'image-resize', input: 'a' } })).toMatchObject({ step: 'a' });
  });

  it('a step whose tool cannot read the kind its input step writes is refused', () => {
    const err = refusal({ video: { tool: 'video-convert', options: { format: 'mp4' } }, small: { tool: 'image-resize', input: 'video' } });
    expect(err.step).toBe('small');
    expect(err.message).toBe('Step "small" (image-resize) takes an image file; step "video" (video-convert) writes a video file.');
  });

  it('a tool writing data or nothing feeds no step; a tool taking any kind reads every file', () => {
    const info = defineTool({ ...findTool('image-resize')!, slug: 'media-info', kind: 'any', outputKind: 'none' });
    const json = defineTool({ ...findTool('audio-compress')!, slug: 'waves', outputKind: (o: { format?: string }) => (o.format === 'png' ? 'image' : 'data') });
    const withMore: PipelineTools = { find: (slug) => ({ 'media-info': info, waves: json })[slug] ?? findTool(slug), options: (_t, o) => o };
    expect(refusal({ i: { tool: 'media-info' }, r: { tool: 'image-resize', input: 'i' } }, withMore).message).toContain('writes no file');
    expect(refusal({ w: { tool: 'waves' }, r: { tool: 'image-resize', input: 'w' } }, withMore).message).toContain('writes a data file');
    expect(planPipeline({ w: { tool: 'waves', options: { format: 'png' } }, r: { tool: 'image-resize', input: 'w' } }, withMore)).toHaveLength(2);
    expect(planPipeline({ v: { tool: 'video-convert' }, i: { tool: 'media-info', input: 'v' } }, withMore)).toHaveLength(2);
  });

  it('names, count and tools are checked; options go through the tool check with their path', () => {
    expect(refusal({})).toMatchObject({ step: undefined });
    const eleven = Object.fromEntries(Array.from({ length: MAX_PIPELINE_STEPS + 1 }, (_, i) => [`s${i}`, { tool: 'image-resize' }]));
    expect(refusal(eleven)).toMatchObject({ step: 's10' });
    expect(refusal({ Bad: { tool: 'image-resize' } })).toMatchObject({ step: 'Bad' });
    expect(refusal({ ['a'.repeat(33)]: { tool: 'image-resize' } }).step).toBe('a'.repeat(33));
    expect(refusal({ a: { tool: 'no-such-tool' } })).toMatchObject({ step: 'a', path: 'body/steps/a/tool' });
    const paths: string[] = [];
    planPipeline({ a: { tool: 'image-resize', options: { width: 1, junk: true } } }, { find: findTool, options: (_t, o, path) => (paths.push(path), o) });
    expect(paths).toEqual(['body/steps/a/options']);
  });

  it('the first step whose scope the key lacks is named', () => {
    const plan = planPipeline({ a: { tool: 'image-resize' }, b: { tool: 'video-convert' }, c: { tool: 'audio-compress' } }, tools);
    expect(firstMissingScope(plan, ['image:write', 'audio:write'])).toEqual({ step: 'b', scope: 'video:write' });
    expect(firstMissingScope(plan, ['image:write', 'video:write', 'audio:write'])).toBeUndefined();
  });
});
