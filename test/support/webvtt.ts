/** A storyboard WebVTT's cues: their times and the `#xywh=` fragment of their URL (tests check each lies inside the sprite). */
export interface StoryboardCue {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export function parseStoryboardVtt(text: string): StoryboardCue[] {
  if (!text.startsWith('WEBVTT\n')) throw new Error('not a WebVTT file');
  const seconds = (t: string) => t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
  return [...text.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)].map((m) => ({
    start: seconds(m[1]),
    end: seconds(m[2]),
    url: m[3],
    x: Number(m[4]),
    y: Number(m[5]),
    w: Number(m[6]),
    h: Number(m[7]),
  }));
}
