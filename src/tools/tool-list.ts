import { audioCompress } from './audio-compress/audio-compress.tool';
import { audioWaveform } from './audio-waveform/audio-waveform.tool';
import { documentConvert } from './document-convert/document-convert.tool';
import { imageConvert } from './image-convert/image-convert.tool';
import { imageResize } from './image-resize/image-resize.tool';
import { imageThumbnail } from './image-thumbnail/image-thumbnail.tool';
import { mediaInfo } from './media-info/media-info.tool';
import { pdfRender } from './pdf-render/pdf-render.tool';
import { videoConvert } from './video-convert/video-convert.tool';
import { videoStoryboard } from './video-storyboard/video-storyboard.tool';
import { videoThumbnail } from './video-thumbnail/video-thumbnail.tool';

/**
 * Every tool, one folder each (docs/adding-a-tool.md), in the order `GET /v1/tools` lists them.
 * The API (catalogue, validation, scopes, prices) and the workers (queues, `run`) read this list only.
 */
export const TOOL_LIST = [
  imageResize,
  imageConvert,
  imageThumbnail,
  videoConvert,
  videoThumbnail,
  videoStoryboard,
  audioCompress,
  audioWaveform,
  documentConvert,
  pdfRender,
  mediaInfo,
] as const;
