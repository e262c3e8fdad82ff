/**
 * A compile test, checked by `npm run typecheck` (and src/contract/typed-tools.spec.ts): the client
 * package's typed pipeline steps (client/src/pipelines.ts) accept each step with its own tool's
 * options and refuse, at compile time, a step the server would refuse. Each `@ts-expect-error`
 * must be needed, or tsc fails. Never run: the calls are inside a function nobody calls.
 */
import { createJobAndWait, type DroplineClient, pipelineSteps, type TypedStep, type TypedSteps } from '@dropline/client';

export function typedPipelineBodies(client: DroplineClient): void {
  const input = { url: 'https://media.example.com/clip.mp4' };

  // Accepted: the three-step video recipe, a chain, a template, a single tool.
  void createJobAndWait(client, {
    input,
    steps: {
      web: { tool: 'video-convert', options: { format: 'mp4', quality: 'medium' } },
      poster: { tool: 'video-thumbnail', options: { at: 'auto', format: 'jpeg' } },
      storyboard: { tool: 'video-storyboard', options: { interval: 5 } },
      small: { tool: 'image-resize', input: 'poster', options: { width: 320 } },
    },
  });
  void createJobAndWait(client, { template: 'tpl_0000000000000000', input });
  void createJobAndWait(client, { tool: 'image-resize', input, options: { width: 320 } });
  void createJobAndWait(client, {
    input,
    steps: pipelineSteps({ webp: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'webp', options: { width: 32 } } }),
  });
  const page: TypedStep = { tool: 'pdf-render', options: { page: 2, format: 'webp' } };
  const steps: TypedSteps = { page, info: { tool: 'media-info' } };
  void steps;

  // @ts-expect-error image-resize takes no format (that is image-convert's)
  const resizeToWebp: TypedStep = { tool: 'image-resize', options: { format: 'webp' } };
  // @ts-expect-error a width is a number of pixels, not a CSS length
  void createJobAndWait(client, { input, steps: { small: { tool: 'image-resize', options: { width: '320px' } } } });
  // @ts-expect-error an image format is not a video format
  void createJobAndWait(client, { input, steps: { web: { tool: 'video-convert', options: { format: 'gif' } } } });
  // @ts-expect-error there is no image-blur tool
  void createJobAndWait(client, { input, steps: { blur: { tool: 'image-blur' } } });
  // @ts-expect-error a step's input is a step's name, not a URL
  void createJobAndWait(client, { input, steps: { small: { tool: 'image-resize', input: { url: 'https://x.example/a.png' }, options: { width: 10 } } } });
  // @ts-expect-error pipelineSteps: "nowhere" is not a step of this set
  void pipelineSteps({ small: { tool: 'image-resize', input: 'nowhere', options: { width: 10 } } });
  // @ts-expect-error pipelineSteps: a step cannot read its own output
  void pipelineSteps({ small: { tool: 'image-resize', input: 'small', options: { width: 10 } } });
  void resizeToWebp;
}
