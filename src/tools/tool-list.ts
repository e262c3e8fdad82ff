import { audioCompress } from './audio-compress/audio-compress.tool';
import { audioWaveform } from './audio-waveform/audio-waveform.tool';
import { imageConvert } from './image-convert/image-convert.tool';
import { imageResize } from './image-resize/image-resize.tool';
import { imageThumbnail } from './image-thumbnail/image-thumbnail.tool';
import { mediaInfo } from './media-info/media-info.tool';
import { videoConvert } from './video-convert/video-convert.tool';

/**
 * Every tool, one folder each (docs/adding-a-tool.md), in the order `GET /v1/tools` lists them.
 * The API (catalogue, validation, scopes, prices) and the workers (queues, `run`) read this list only.
 */
export const TOOL_LIST = [imageResize, imageConvert, videoConvert, audioCompress, imageThumbnail, audioWaveform, mediaInfo] as const;
