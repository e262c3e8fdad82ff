/** The Content-Type of each output format the tools write (and drop auto-conversion records). */
const CONTENT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  tiff: 'image/tiff',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  opus: 'audio/ogg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  vtt: 'text/vtt',
  json: 'application/json',
  pdf: 'application/pdf',
};

export function contentTypeOf(format: string): string {
  return CONTENT_TYPES[format] ?? 'application/octet-stream';
}
