import type { StoryboardOutput } from '../../media/media.types';

/**
 * The storyboard's WebVTT: one cue per tile, from its time to the next tile's (the last ends with
 * the video), whose text is `<spriteFileName>#xywh=x,y,w,h` (Media Fragments): a URL relative to
 * the VTT's own, percent-encoded, naming the sprite as it downloads.
 */
export function storyboardVtt(spriteFileName: string, board: Omit<StoryboardOutput, 'sprite'>): string {
  const url = encodeURIComponent(spriteFileName);
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < board.tiles; i++) {
    const start = i * board.interval;
    const end = Math.min((i + 1) * board.interval, board.duration);
    const x = (i % board.columns) * board.tileWidth;
    const y = Math.floor(i / board.columns) * board.tileHeight;
    lines.push(`${timestamp(start)} --> ${timestamp(Math.max(end, start + 0.001))}`, `${url}#xywh=${x},${y},${board.tileWidth},${board.tileHeight}`, '');
  }
  return lines.join('\n');
}

/** `HH:MM:SS.mmm`. */
function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
