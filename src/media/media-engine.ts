import { Inject, Injectable, Optional } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { AudioAdapter } from './audio-adapter';
import { Deadline } from './deadline';
import { DocumentAdapter } from './document-adapter';
import { FfmpegAdapter } from './ffmpeg-adapter';
import type { AvInfo } from './ffprobe-data';
import { ImageAdapter } from './image-adapter';
import { MediaError } from './media.errors';
import { checkInput } from './media-files';
import { avInfo, documentInfo, imageInfo } from './media-info';
import {
  DOCUMENT_LIMITS,
  type AudioWaveformOptions,
  type DocumentTarget,
  type ImageHeader,
  type MediaEngineOptions,
  type MediaInfo,
  MEDIA_LIMITS,
  type MediaOutput,
  type ProbeResult,
  type ProgressCallback,
  type RenderPdfPageOptions,
  type StoryboardOptions,
  type StoryboardOutput,
  type ThumbnailImageOptions,
  type ThumbnailOutput,
  type TranscodeAudioOptions,
  type TranscodeVideoOptions,
  type TransformImageOptions,
  type VideoFrameOptions,
} from './media.types';
import { VideoAdapter } from './video-adapter';

export const MEDIA_ENGINE_OPTIONS = Symbol('MEDIA_ENGINE_OPTIONS');

/**
 * The only way to sharp, ffmpeg, ffprobe, LibreOffice and poppler: what the tools call. It tells
 * what a file is, then hands each operation to the adapter of its kind (images, video, audio,
 * documents). Every operation reads one local file, writes one generated file name (`output.<ext>`,
 * or `output-<random>.<ext>` if that is taken) into `outDir`, describes the output (sharp's report
 * of what it wrote; ffprobe of the written file for video and audio), and deletes it on any failure.
 * All failures are MediaError (`unsupported_input` | `processing_failed` | `timeout`).
 */
@Injectable()
export class MediaEngine {
  private readonly timeLimitMs: number;
  private readonly images: ImageAdapter;
  private readonly ffmpeg: FfmpegAdapter;
  private readonly video: VideoAdapter;
  private readonly audio: AudioAdapter;
  private readonly documents: DocumentAdapter;

  constructor(@Optional() @Inject(MEDIA_ENGINE_OPTIONS) options: MediaEngineOptions = {}) {
    this.timeLimitMs = options.timeLimitMs ?? MEDIA_LIMITS.timeLimitMs;
    const maxInputPixels = options.maxInputPixels ?? MEDIA_LIMITS.maxInputPixels;
    this.images = new ImageAdapter(this.timeLimitMs, maxInputPixels);
    this.ffmpeg = new FfmpegAdapter(options.ffmpegPath || 'ffmpeg', options.ffprobePath || 'ffprobe', this.timeLimitMs, maxInputPixels);
    this.video = new VideoAdapter(this.ffmpeg, this.images);
    this.audio = new AudioAdapter(this.ffmpeg, this.images);
    this.documents = new DocumentAdapter(
      { soffice: options.sofficePath || 'soffice', pdftoppm: options.pdftoppmPath || 'pdftoppm', pdfinfo: options.pdfinfoPath || 'pdfinfo' },
      options.documentTimeLimitMs ?? DOCUMENT_LIMITS.timeLimitMs,
      maxInputPixels,
    );
  }

  /**
   * What a file is. Never throws for non-media (kind 'unknown'); only for a missing file or a timeout.
   * Documents: PDF, Office, OpenDocument and RTF by their magic bytes (a PDF with its page count),
   * then, once nothing else matched, UTF-8 text (`txt`, or `html` when it starts like a page).
   */
  async probe(path: string): Promise<ProbeResult> {
    const deadline = new Deadline(this.timeLimitMs);
    const abs = await checkInput(path);
    const document = await this.documents.identify(abs, deadline);
    if (document) return document;
    const image = await this.images.probe(abs);
    if (image) return image;
    try {
      const av = await this.ffmpeg.probe(abs, deadline);
      return { kind: av.kind, format: av.format, width: av.width, height: av.height, duration: av.duration, av };
    } catch (err) {
      if (err instanceof MediaError && err.code === 'unsupported_input') return (await this.documents.identifyText(abs)) ?? { kind: 'unknown', format: 'unknown' };
      throw err;
    }
  }

  /** What a file is, from its headers only (nothing decoded): sharp's metadata for images, ffprobe for video and audio. */
  async inspect(input: string, probe: ProbeResult): Promise<MediaInfo> {
    const deadline = new Deadline(this.timeLimitMs);
    const abs = await checkInput(input);
    const size = (await stat(abs)).size;
    if (probe.kind === 'image') return imageInfo(probe.image ?? (await this.images.header(abs)), size);
    if (probe.kind === 'video' || probe.kind === 'audio') return avInfo(probe.av ?? (await this.ffmpeg.probe(abs, deadline)), size);
    return documentInfo(probe, size);
  }

  /** See DocumentAdapter.convertToPdf. */
  convertDocumentToPdf(input: string, outDir: string, format: string): Promise<MediaOutput> {
    return this.documents.convertToPdf(input, outDir, format);
  }

  /** See DocumentAdapter.convert. */
  convertDocument(input: string, outDir: string, format: string, target: DocumentTarget): Promise<MediaOutput> {
    return this.documents.convert(input, outDir, format, target);
  }

  /** See DocumentAdapter.renderPage. */
  renderPdfPage(input: string, outDir: string, opts: RenderPdfPageOptions, pages?: number): Promise<MediaOutput> {
    return this.documents.renderPage(input, outDir, opts, pages);
  }

  /** See ImageAdapter.transform. */
  transformImage(input: string, outDir: string, opts: TransformImageOptions = {}, probed?: ImageHeader): Promise<MediaOutput> {
    return this.images.transform(input, outDir, opts, probed);
  }

  /** See ImageAdapter.thumbnail. */
  thumbnailImage(input: string, outDir: string, opts: ThumbnailImageOptions, probed?: ImageHeader): Promise<ThumbnailOutput> {
    return this.images.thumbnail(input, outDir, opts, probed);
  }

  /** See AudioAdapter.waveform. */
  audioWaveform(input: string, outDir: string, opts: AudioWaveformOptions, onProgress?: ProgressCallback, probed?: AvInfo): Promise<MediaOutput> {
    return this.audio.waveform(input, outDir, opts, onProgress, probed);
  }

  /** See VideoAdapter.transcode. */
  transcodeVideo(input: string, outDir: string, opts: TranscodeVideoOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.video.transcode(input, outDir, opts, onProgress);
  }

  /** See AudioAdapter.transcode. */
  transcodeAudio(input: string, outDir: string, opts: TranscodeAudioOptions, onProgress?: ProgressCallback): Promise<MediaOutput> {
    return this.audio.transcode(input, outDir, opts, onProgress);
  }

  /** See VideoAdapter.frame. */
  videoFrame(input: string, outDir: string, opts: VideoFrameOptions, onProgress?: ProgressCallback, probed?: AvInfo): Promise<MediaOutput> {
    return this.video.frame(input, outDir, opts, onProgress, probed);
  }

  /** See VideoAdapter.storyboard. */
  videoStoryboard(input: string, outDir: string, opts: StoryboardOptions, onProgress?: ProgressCallback): Promise<StoryboardOutput> {
    return this.video.storyboard(input, outDir, opts, onProgress);
  }
}
