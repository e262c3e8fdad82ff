import { Injectable } from '@nestjs/common';
import { MediaError } from '../media/media.errors';
import { MediaRepository } from '../media/media.repository';
import type { AudioFormat, MediaOutput, VideoFormat, VideoQuality, ImageFormat } from '../media/media.types';
import { TOOLS, type ToolSlug } from '../tools/tool-registry';

export interface ToolRun {
  output: MediaOutput;
  message?: string;
}

/** Maps a tool and its (validated) options onto the media layer. */
@Injectable()
export class ToolRunner {
  constructor(private readonly media: MediaRepository) {}

  async run(tool: ToolSlug, input: string, outDir: string, options: Record<string, any>, onProgress: (p: number) => void): Promise<ToolRun> {
    const probe = await this.media.probe(input);
    const kind = TOOLS[tool].kind;
    if (probe.kind !== kind) {
      throw new MediaError(
        'unsupported_input',
        `${tool} needs ${kind === 'image' ? 'an' : 'a'} ${kind} file; the input is ${probe.kind === 'unknown' ? 'not a media file' : `${probe.kind === 'image' ? 'an' : 'a'} ${probe.kind} file`}.`,
      );
    }
    switch (tool) {
      case 'image-resize': {
        const output = await this.media.transformImage(
          input,
          outDir,
          {
            width: options.width,
            height: options.height,
            maintainAspectRatio: options.maintainAspectRatio ?? true,
            format: options.format as ImageFormat | undefined,
          },
          probe.image,
        );
        return { output, message: `Resized to ${output.width}×${output.height}.` };
      }
      case 'image-convert': {
        const output = await this.media.transformImage(
          input,
          outDir,
          {
            format: (options.format ?? 'webp') as ImageFormat,
            quality: options.quality ?? 80,
            stripMetadata: options.stripMetadata,
          },
          probe.image,
        );
        return { output, message: `Converted to ${output.format}.` };
      }
      case 'video-convert': {
        const output = await this.media.transcodeVideo(
          input,
          outDir,
          { format: (options.format ?? 'mp4') as VideoFormat, quality: (options.quality ?? 'medium') as VideoQuality, crf: options.crf },
          onProgress,
        );
        return { output, message: `Converted to ${output.format}.` };
      }
      case 'audio-compress': {
        // The API offers MP3 only; drop auto-conversion also asks for aac/opus/wav.
        const output = await this.media.transcodeAudio(input, outDir, { format: (options.format ?? 'mp3') as AudioFormat, bitrate: options.bitrate ?? '128k' }, onProgress);
        return { output };
      }
    }
  }
}
