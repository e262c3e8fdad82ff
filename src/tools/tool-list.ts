import { audioCompress } from './audio-compress/audio-compress.tool';
import { documentConvert } from './document-convert/document-convert.tool';
import { imageConvert } from './image-convert/image-convert.tool';
import { imageResize } from './image-resize/image-resize.tool';
import { pdfRender } from './pdf-render/pdf-render.tool';
import { videoConvert } from './video-convert/video-convert.tool';
import { videoStoryboard } from './video-storyboard/video-storyboard.tool';
import { videoThumbnail } from './video-thumbnail/video-thumbnail.tool';

/**
 * Every tool, one folder each (docs/adding-a-tool.md), in the order `GET /v1/tools` lists them.
 * The API (catalogue, validation, scopes, prices) and the workers (queues, `run`) read this list only.
 */
export const TOOL_LIST = [imageResize, imageConvert, videoConvert, audioCompress, videoThumbnail, videoStoryboard, documentConvert, pdfRender] as const;
