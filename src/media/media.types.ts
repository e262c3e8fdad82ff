/** Public shapes of the media layer (and its default limits). Everything here is plain data; no I/O. */

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'unknown';

export interface ProbeResult {
  kind: MediaKind;
  /** jpeg/png/webp/avif/gif/tiff for images; mp4/mov/webm/mkv/mp3/… for video and audio; pdf/docx/…/txt/html for documents; 'unknown' otherwise. */
  format: string;
  width?: number;
  height?: number;
  /** Seconds. */
  duration?: number;
  /** Documents: the page count, when the probe knows it (PDF). */
  pages?: number;
  /** Images: what transformImage needs from the header, handed forward so it does not read it again. */
  image?: ImageHeader;
  /** Video and audio: ffprobe's description, handed forward likewise (one ffprobe run costs ~100 CPU-ms of start-up). */
  av?: AvInfo;
}

/** What the media layer needs from `ffprobe -show_format -show_streams -of json`. Pure parsing. */
export interface AvInfo {
  /** Raw libavformat name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /** The allowlisted demuxer to force for decoding, or undefined when the container is not allowed. */
  demuxer?: string;
  kind: 'video' | 'audio' | 'unknown';
  /** Friendly name: mp4/mov/webm/mkv/avi/… for video, mp3/aac/opus/wav/flac/… for audio. */
  format: string;
  width?: number;
  height?: number;
  duration?: number;
  /** Bits per second of the audio stream (or the whole file when the stream does not say). */
  audioBitrate?: number;
  videoCodec?: string;
  audioCodec?: string;
  /** Bits per second of the whole file. */
  bitrate?: number;
  /** Video: frames per second (the stream's average). */
  frameRate?: number;
  /** Video: the display rotation in degrees (width and height are already swapped for a quarter turn). */
  rotation?: number;
  /** Audio: of the first audio stream. */
  channels?: number;
  sampleRate?: number;
}

export interface ImageHeader {
  /** As imageFormatName names it (avif, not heif). */
  format: string;
  /** Auto-oriented; one page of an animation. */
  width: number;
  height: number;
  pages?: number;
  hasAlpha: boolean;
  /** EXIF orientation (1..8), already applied to width and height. */
  orientation?: number;
}

/** Description of a written output: sharp's own report of what it wrote (images), or ffprobe of the output file (video, audio). */
export interface MediaOutput {
  path: string;
  format: string;
  size: number;
  width?: number;
  height?: number;
  /** Seconds. */
  duration?: number;
  /** Audio bitrate, e.g. '128k'. */
  bitrate?: string;
  /** PDFs: the page count (of the written PDF, or of the PDF a page was rendered from). */
  pages?: number;
}

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface TransformImageOptions {
  /** Default: the input's format when it is one of IMAGE_FORMATS, otherwise png. */
  format?: ImageFormat;
  width?: number;
  height?: number;
  /** Default true: fit inside width×height keeping the aspect ratio. False: exactly width×height (`fill`). */
  maintainAspectRatio?: boolean;
  /** With width and height: overrides maintainAspectRatio (`inside`: its true, `fill`: its false); `cover` crops, `contain` pads. */
  fit?: ImageFit;
  /** Where `cover` crops and `contain` places the image; default `center`. attention/entropy: `cover` only. */
  position?: ImagePosition;
  /** 1..100, default 80. Used by jpeg, webp, avif and tiff; png and gif are written losslessly/palettised. */
  quality?: number;
  /** Default true: drop EXIF/XMP/ICC (the image is auto-oriented and converted to sRGB first). */
  stripMetadata?: boolean;
}

export type ImageFit = 'inside' | 'cover' | 'contain' | 'fill';
export type ImagePosition = 'center' | 'top' | 'right' | 'bottom' | 'left' | 'attention' | 'entropy';

/** A cut of the input: `start` seconds in, at most `duration` seconds long (a start at or past the end is `invalid_option`). */
export interface TrimOptions {
  start?: number;
  duration?: number;
}

export type VideoFormat = 'mp4' | 'webm' | 'mov';
export type VideoQuality = 'low' | 'medium' | 'high';

export interface TranscodeVideoOptions extends TrimOptions {
  format: VideoFormat;
  /** Output size: one side keeps the aspect ratio; both fit inside width × height. Rounded down to even. */
  width?: number;
  height?: number;
  /** Output frames per second; default the input's. */
  fps?: number;
  /** Default true; false writes no audio stream. */
  audio?: boolean;
  /** Default 'medium'. */
  quality?: VideoQuality;
  /** Overrides quality. H.264 (mp4, mov): 0..51; VP9 (webm): 0..63. */
  crf?: number;
}

export type AudioFormat = 'mp3' | 'aac' | 'opus' | 'wav';

export interface TranscodeAudioOptions extends TrimOptions {
  format: AudioFormat;
  /** '32k'..'320k', default '128k'. Ignored for wav (PCM). */
  bitrate?: string;
  /** 1 (mono) or 2 (stereo); default the input's. */
  channels?: number;
  /** Hz; default the input's (opus: 48000 unless one of its rates). */
  sampleRate?: number;
}

export interface VideoFrameOptions {
  /** Seconds from the start (past the end: the last frame), or `auto`: a representative frame (ffmpeg-args.ts videoFramePlan). */
  at: number | 'auto';
  /** Output width; the height keeps the aspect ratio. Default: the video's. */
  width?: number;
  format: 'jpeg' | 'webp' | 'png';
}

export interface StoryboardOptions {
  /** Seconds between tiles. */
  interval: number;
  /** Tiles per row. */
  columns: number;
  /** Tile width in pixels. */
  width: number;
  format: 'jpeg' | 'webp';
}

/** The sprite, and where each tile is: tile i starts at i × interval seconds, at column i % columns, row ⌊i / columns⌋. */
export interface StoryboardOutput {
  sprite: MediaOutput;
  /** The video's duration in seconds (the last tile's end). */
  duration: number;
  interval: number;
  tiles: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/** Receives 0..100, non-decreasing; the last call is 100 on success. */
export type ProgressCallback = (percent: number) => void;

/** The media layer's limits unless configured otherwise: 10 minutes per operation, 100 megapixels of input. */
export const MEDIA_LIMITS = { timeLimitMs: 10 * 60 * 1000, maxInputPixels: 100_000_000 } as const;

export interface MediaEngineOptions {
  /** Default: `ffmpeg` on PATH. MediaModule passes AppConfig's FFMPEG_PATH (and the other paths below). */
  ffmpegPath?: string;
  /** Default: `ffprobe` on PATH. */
  ffprobePath?: string;
  /** Wall-clock limit per operation, default 10 minutes. */
  timeLimitMs?: number;
  /** Largest accepted input (width × height × frames for animations; width × height for video), default 100 000 000. */
  maxInputPixels?: number;
  /** Default: `soffice` on PATH. */
  sofficePath?: string;
  /** Default: `pdftoppm` / `pdfinfo` on PATH. */
  pdftoppmPath?: string;
  pdfinfoPath?: string;
  /** Wall-clock limit of one document conversion or page render, default 2 minutes. */
  documentTimeLimitMs?: number;
}

/** The formats document-convert takes (LibreOffice), as the probe names them. */
export const OFFICE_FORMATS = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'txt', 'html'] as const;
export type OfficeFormat = (typeof OFFICE_FORMATS)[number];

/** What document-convert writes: pdf from any office format, the rest within the input's kind (DOCUMENT_TARGETS). */
export type DocumentTarget = 'pdf' | 'docx' | 'odt' | 'rtf' | 'txt' | 'html' | 'xlsx' | 'ods' | 'csv' | 'pptx' | 'odp';

/** The kinds of office documents and the formats each converts to besides pdf. */
export const DOCUMENT_TARGETS: Record<'text' | 'spreadsheet' | 'presentation', { inputs: readonly OfficeFormat[]; outputs: readonly DocumentTarget[] }> = {
  text: { inputs: ['docx', 'odt', 'rtf', 'txt', 'html'], outputs: ['docx', 'odt', 'rtf', 'txt', 'html'] },
  spreadsheet: { inputs: ['xlsx', 'ods'], outputs: ['xlsx', 'ods', 'csv'] },
  presentation: { inputs: ['pptx', 'odp'], outputs: ['pptx', 'odp'] },
};

export type PdfPageFormat = 'png' | 'webp' | 'jpeg';

export interface RenderPdfPageOptions {
  /** 1-based. */
  page: number;
  format: PdfPageFormat;
  /** Output width in pixels (the height follows the page); otherwise `dpi`. */
  width?: number;
  /** Default 150. */
  dpi?: number;
}

/**
 * Documents: 2 minutes per conversion; a PDF of at most 2000 pages (a PDF bomb declares millions);
 * a zipped office file expanding to at most 512 MB, or past 64 MB to at most 100× its size (a zip bomb).
 */
export const DOCUMENT_LIMITS = {
  timeLimitMs: 2 * 60 * 1000,
  maxPdfPages: 2000,
  maxUnzippedBytes: 512 * 1024 * 1024,
  ratioFloorBytes: 64 * 1024 * 1024,
  maxRatio: 100,
} as const;

export type ThumbnailFit = 'cover' | 'contain' | 'inside';
export type ThumbnailPosition = 'attention' | 'entropy' | 'center';

export interface ThumbnailImageOptions {
  format: 'webp' | 'avif' | 'jpeg' | 'png';
  /** At least one of width and height. */
  width?: number;
  height?: number;
  /** Default 'cover'. */
  fit?: ThumbnailFit;
  /** Where `cover` crops; default 'attention' (libvips smart crop). */
  position?: ThumbnailPosition;
  /** 1..100, default 80 (jpeg, webp, avif). */
  quality?: number;
}

/** A thumbnail and what to show while it loads. */
export interface ThumbnailOutput extends MediaOutput {
  /** ThumbHash of the thumbnail, base64. */
  thumbhash: string;
  /** `#rrggbb`, libvips' dominant colour of the thumbnail. */
  dominantColor: string;
}

export interface AudioWaveformOptions {
  format: 'json' | 'png';
  /** json: the number of min/max pairs. */
  points?: number;
  /** json: 8 (-128..127) or 16 (-32768..32767); default 8. */
  bits?: 8 | 16;
  /** png: pixels; one point per column. */
  width?: number;
  height?: number;
  /** png: `#rrggbb`. */
  color?: string;
}

/** What inspect() reads from a file's headers (image: sharp's metadata; video/audio: ffprobe). */
export interface MediaInfo {
  kind: MediaKind | 'document';
  format: string;
  /** Video and audio: libavformat's container name. */
  container?: string;
  size: number;
  width?: number;
  height?: number;
  duration?: number;
  bitrate?: number;
  videoCodec?: string;
  audioCodec?: string;
  frameRate?: number;
  channels?: number;
  sampleRate?: number;
  orientation?: number;
  rotation?: number;
  frames?: number;
  hasAlpha?: boolean;
  pages?: number;
}
