/**
 * A compile test, checked by `npm run typecheck` (and src/contract/typed-tools.spec.ts): the
 * generated client accepts each tool with its own options and refuses, at compile time, what the
 * server would refuse at run time. Each `@ts-expect-error` must be needed, or tsc fails.
 * Never run: the calls are inside a function nobody calls.
 */
import type { DroplineClient, JobCreate } from '../../generated';

export function typedJobBodies(client: DroplineClient): void {
  const input = { fileId: 'upl_0000000000000000' };

  // Accepted: each tool with its own options.
  void client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: 320 } } });
  void client.POST('/v1/jobs', { body: { tool: 'image-convert', input, options: { format: 'avif', quality: 60 } } });
  void client.POST('/v1/jobs', { body: { tool: 'video-convert', input, options: { format: 'webm', quality: 'low' } } });
  void client.POST('/v1/jobs', { body: { tool: 'audio-compress', input, options: { bitrate: '96k' } } });
  void client.POST('/v1/jobs', { body: { tool: 'image-thumbnail', input, options: { width: 320, height: 320, fit: 'cover', position: 'attention', format: 'avif' } } });
  void client.POST('/v1/jobs', { body: { tool: 'audio-waveform', input, options: { format: 'png', width: 800, height: 120, color: '#336699' } } });
  void client.POST('/v1/jobs', { body: { tool: 'media-info', input } });
  const narrowed: JobCreate = { tool: 'image-resize', input, options: { height: 10, maintainAspectRatio: false } };
  if (narrowed.tool === 'image-resize') void narrowed.options?.width;

  // @ts-expect-error a width is a number of pixels, not a CSS length
  void client.POST('/v1/jobs', { body: { tool: 'image-resize', input, options: { width: '320px' } } });
  // @ts-expect-error there is no image-blur tool
  void client.POST('/v1/jobs', { body: { tool: 'image-blur', input, options: {} } });
  // @ts-expect-error an image format is not a video format
  void client.POST('/v1/jobs', { body: { tool: 'video-convert', input, options: { format: 'gif' } } });
  // @ts-expect-error video quality is low, medium or high, not a number
  void client.POST('/v1/jobs', { body: { tool: 'video-convert', input, options: { quality: 80 } } });
  // @ts-expect-error resize options do not belong to image-convert
  const mixed: JobCreate = { tool: 'image-convert', input, options: { width: 10 } };
  // @ts-expect-error a bitrate is a string such as '128k'
  const bitrate: JobCreate = { tool: 'audio-compress', input, options: { bitrate: 128 } };
  // @ts-expect-error a thumbnail needs a width or a height
  const sizeless: JobCreate = { tool: 'image-thumbnail', input, options: { fit: 'cover' } };
  // @ts-expect-error a waveform is json or png, not svg
  const svg: JobCreate = { tool: 'audio-waveform', input, options: { format: 'svg' } };
  void mixed;
  void bitrate;
  void sizeless;
  void svg;
}
