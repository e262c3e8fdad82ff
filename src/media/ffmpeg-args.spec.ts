import { checkPlannedOutput, scaledFrame } from './output-size';
import {
  allowedDemuxer,
  audioOutputPlan,
  CRF,
  ffmpegInputArgs,
  ffprobeArgs,
  parseBitrate,
  parseStatsTime,
  STORYBOARD_MAX_SIDE,
  STORYBOARD_MAX_TILES,
  storyboardGeometry,
  trimPlan,
  videoOutputPlan,
  videoScale,
} from './ffmpeg-args';
import { parseFfprobe } from './ffprobe-data';
import { formatDuration, MediaError } from './media.errors';

const valueAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('demuxer allowlist', () => {
  it.each([
    ['mov,mp4,m4a,3gp,3g2,mj2', 'mov'],
    ['matroska,webm', 'matroska'],
    ['mp3', 'mp3'],
    ['wav', 'wav'],
  ])('%s is allowed as %s', (name, demuxer) => expect(allowedDemuxer(name)).toBe(demuxer));

  it.each(['hls', 'concat', 'image2', 'tee', 'lavfi', 'png_pipe', 'tty', 'srt', 'data', '', undefined])('%s is refused', (name) => expect(allowedDemuxer(name)).toBeUndefined());

  it('every run is confined to local files and allowlisted demuxers', () => {
    for (const args of [ffprobeArgs('/tmp/x'), ffmpegInputArgs('mov')]) {
      expect(valueAfter(args, '-protocol_whitelist')).toBe('file');
      expect(valueAfter(args, '-format_whitelist').split(',')).not.toContain('hls');
    }
    expect(ffprobeArgs('/tmp/x').at(-1)).toBe('file:/tmp/x');
    expect(valueAfter(ffmpegInputArgs('matroska'), '-f')).toBe('matroska');
  });
});

describe('video plans', () => {
  it('maps quality to CRF per codec, and crf overrides', () => {
    expect(CRF).toEqual({ h264: { high: 20, medium: 23, low: 28 }, vp9: { high: 28, medium: 33, low: 40 } });
    expect(valueAfter(videoOutputPlan({ format: 'mp4' }).args, '-crf')).toBe('23');
    expect(valueAfter(videoOutputPlan({ format: 'webm', quality: 'high' }).args, '-crf')).toBe('28');
    expect(valueAfter(videoOutputPlan({ format: 'mov', quality: 'high', crf: 28 }).args, '-crf')).toBe('28');
  });

  it('uses H.264/AAC with faststart for mp4 and mov, realtime VP9/Opus for webm', () => {
    const mp4 = videoOutputPlan({ format: 'mp4' });
    expect(mp4.ext).toBe('mp4');
    expect(mp4.args).toEqual(expect.arrayContaining(['libx264', 'aac', '+faststart']));
    const webm = videoOutputPlan({ format: 'webm' });
    expect(webm.args).toEqual(expect.arrayContaining(['libvpx-vp9', 'realtime', 'libopus']));
    expect(valueAfter(webm.args, '-b:v')).toBe('0');
  });

  it('rejects out-of-range crf per codec', () => {
    expect(() => videoOutputPlan({ format: 'mp4', crf: 52 })).toThrow(MediaError);
    expect(() => videoOutputPlan({ format: 'webm', crf: 63 })).not.toThrow();
    expect(() => videoOutputPlan({ format: 'mp4', crf: 2.5 })).toThrow('crf must be an integer from 0 to 51 for mp4.');
  });
});

describe('video options: size, trim, frame rate, sound', () => {
  const clip = { width: 1920, height: 1080, duration: 10 };

  it('one side keeps the aspect ratio, both fit inside the box; sides are even', () => {
    expect(videoScale(clip, 640)).toEqual({ filter: 'scale=640:-2', size: { width: 640, height: 360 } });
    expect(videoScale(clip, undefined, 361)).toEqual({ filter: 'scale=-2:361', size: { width: 642, height: 360 } });
    expect(videoScale(clip, 640, 640)).toMatchObject({ size: { width: 640, height: 360 } });
    expect(videoScale(clip, 640, 640).filter).toContain('force_original_aspect_ratio=decrease');
    expect(valueAfter(videoOutputPlan({ format: 'mp4', width: 640, fps: 12.5 }, clip).args, '-vf')).toBe('fps=12.5,scale=640:-2,scale=trunc(iw/2)*2:trunc(ih/2)*2');
    expect(valueAfter(videoOutputPlan({ format: 'mp4' }, clip).args, '-vf')).toBe('scale=trunc(iw/2)*2:trunc(ih/2)*2');
  });

  it('a planned size over the pixel limit is invalid_option before ffmpeg runs', () => {
    expect(() => videoOutputPlan({ format: 'mp4', width: 7680 }, { width: 16, height: 1600 }, 100_000_000)).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining('The video would be 7680×768000 pixels') }),
    );
    expect(() => videoOutputPlan({ format: 'mp4', width: 7680 }, clip, 100_000_000)).not.toThrow();
  });

  it('trims with -ss on the input and -t on the output; a start at or past the end is invalid_option', () => {
    const plan = videoOutputPlan({ format: 'mp4', start: 2.5, duration: 3 }, clip);
    expect(plan).toMatchObject({ input: ['-ss', '2.500'], duration: 3 });
    expect(valueAfter(plan.args, '-t')).toBe('3.000');
    expect(trimPlan({ start: 8, duration: 5 }, 10)).toMatchObject({ duration: 2 });
    expect(trimPlan({}, 10)).toEqual({ input: [], output: [], duration: 10 });
    expect(() => trimPlan({ start: 10 }, 10)).toThrow(expect.objectContaining({ code: 'invalid_option', message: 'start is 10 s, at or past the end of the input (10 s long).' }));
    expect(() => trimPlan({ start: -1 }, 10)).toThrow(MediaError);
  });

  it('audio false maps no audio stream and names no audio codec', () => {
    for (const format of ['mp4', 'webm'] as const) {
      const args = videoOutputPlan({ format, audio: false }, clip).args;
      expect(args).toContain('-an');
      expect(args).not.toContain('0:a:0?');
      expect(args).not.toContain('-c:a');
    }
    expect(videoOutputPlan({ format: 'mp4' }, clip).args).toContain('0:a:0?');
  });
});

describe('audio plans', () => {
  it('channels and sample rate as asked; opus only at its own rates', () => {
    const args = audioOutputPlan({ format: 'aac', channels: 1, sampleRate: 22050, start: 1 }, { duration: 3 });
    expect([valueAfter(args.args, '-ac'), valueAfter(args.args, '-ar')]).toEqual(['1', '22050']);
    expect(args).toMatchObject({ input: ['-ss', '1.000'], duration: 2 });
    expect(() => audioOutputPlan({ format: 'opus', sampleRate: 44100 })).toThrow(MediaError);
    expect(() => audioOutputPlan({ format: 'mp3', channels: 6 })).toThrow('channels must be 1 or 2.');
    expect(audioOutputPlan({ format: 'mp3' }).args).not.toContain('-ac');
  });

  it('bitrates 32k..320k', () => {
    expect(parseBitrate('32k')).toBe(32);
    expect(parseBitrate('320k')).toBe(320);
    for (const bad of ['31k', '321k', '128', '128K', '1e2k', '']) expect(() => parseBitrate(bad)).toThrow(MediaError);
  });

  it('wav ignores the bitrate; aac goes into .m4a', () => {
    expect(audioOutputPlan({ format: 'wav', bitrate: '64k' }).args).not.toContain('-b:a');
    expect(audioOutputPlan({ format: 'aac' })).toMatchObject({ ext: 'm4a' });
    expect(valueAfter(audioOutputPlan({ format: 'mp3' }).args, '-b:a')).toBe('128k');
  });
});

describe('parsing', () => {
  it('reads the time of a stats line', () => {
    expect(parseStatsTime('frame=  73 fps=0.0 q=29.0 size=  0kB time=00:01:02.46 bitrate=0.2kbits/s speed=5.73x')).toBeCloseTo(62.46);
    expect(parseStatsTime('size=N/A time=-00:00:00.02 bitrate=N/A')).toBeUndefined();
    expect(parseStatsTime('size=N/A time=N/A bitrate=N/A')).toBeUndefined();
  });

  it('names formats from ffprobe output, ignoring cover art and honouring rotation', () => {
    const json = (o: object) => JSON.stringify(o);
    const mp3WithCover = parseFfprobe(
      json({
        format: { format_name: 'mp3', duration: '3.0', bit_rate: '64000' },
        streams: [
          { codec_type: 'audio', codec_name: 'mp3', bit_rate: '64000' },
          { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
        ],
      }),
    );
    expect(mp3WithCover).toMatchObject({ kind: 'audio', format: 'mp3', demuxer: 'mp3', audioBitrate: 64000, duration: 3 });
    const rotated = parseFfprobe(
      json({
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '1', tags: { major_brand: 'qt  ' } },
        streams: [{ codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] }],
      }),
    );
    expect(rotated).toMatchObject({ kind: 'video', format: 'mov', width: 1080, height: 1920 });
    const mkv = parseFfprobe(json({ format: { format_name: 'matroska,webm' }, streams: [{ codec_type: 'video', codec_name: 'h264' }] }));
    expect(mkv.format).toBe('mkv');
  });

  it('formats durations for messages', () => {
    expect(formatDuration(50)).toBe('50 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(600_000)).toBe('10 min');
  });
});

describe('storyboardGeometry', () => {
  const MP100 = 100_000_000;

  it('a tile per interval, the height keeping the aspect ratio (even)', () => {
    expect(storyboardGeometry(12, { width: 1920, height: 1080 }, { interval: 5, columns: 5, width: 160 }, MP100)).toEqual({
      interval: 5,
      tiles: 3,
      columns: 3,
      rows: 1,
      tileWidth: 160,
      tileHeight: 90,
    });
  });

  it('widens the interval past STORYBOARD_MAX_TILES tiles', () => {
    const g = storyboardGeometry(3600, { width: 1280, height: 720 }, { interval: 1, columns: 10, width: 160 }, MP100);
    expect(g.tiles).toBe(STORYBOARD_MAX_TILES);
    expect(g.interval).toBe(36);
    expect(g.rows).toBe(10);
  });

  it('keeps the sprite within STORYBOARD_MAX_SIDE pixels tall', () => {
    // A portrait video in one column: 480 × 854 tiles, 18 of them fill 15 372 pixels.
    const g = storyboardGeometry(600, { width: 1080, height: 1920 }, { interval: 1, columns: 1, width: 480 }, MP100);
    expect(g.rows * g.tileHeight).toBeLessThanOrEqual(STORYBOARD_MAX_SIDE);
    expect(g.tiles).toBe(18);
    expect(g.tiles * g.interval).toBeGreaterThanOrEqual(600);
  });

  it('refuses, before ffmpeg runs, a tile taller than STORYBOARD_MAX_SIDE or over the pixel limit, naming its size', () => {
    // 2×1600 at 480 wide: one 480×384 000 tile (184 megapixels): ffmpeg would allocate ~2 GB for it.
    expect(() => storyboardGeometry(3, { width: 2, height: 1600 }, { interval: 0.5, columns: 1, width: 480 }, MP100)).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: 'One row of 1 tile of 480×384000 would be 480×384000 pixels (184.3 megapixels), which exceeds the limit of 100 megapixels.',
      }),
    );
    // Within the pixels but taller than the sprite may be: 32×25 600 (0.8 megapixels).
    expect(() => storyboardGeometry(3, { width: 2, height: 1600 }, { interval: 0.5, columns: 1, width: 32 }, MP100)).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: 'One row of 1 tile of 32×25600 would be 32×25600 pixels, more than the limit of 16000 pixels on a side.' }),
    );
    // A full row of 20 tall tiles over the limit (a 2-second video fits 4 of them in one row: allowed).
    expect(() => storyboardGeometry(600, { width: 100, height: 3000 }, { interval: 1, columns: 20, width: 480 }, MP100)).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining('One row of 20 tiles of 480×14400 would be 9600×14400 pixels (138.2 megapixels)') }),
    );
    expect(storyboardGeometry(2, { width: 100, height: 3000 }, { interval: 0.5, columns: 20, width: 480 }, MP100)).toMatchObject({ tiles: 4, columns: 4, rows: 1 });
  });

  it('keeps the whole sprite within the pixel limit: fewer tiles, a wider interval', () => {
    // 20 columns of 480×2700 tiles (a 16:90 video): 5 rows would fit 16 000 pixels tall but make 130 megapixels.
    const g = storyboardGeometry(600, { width: 160, height: 900 }, { interval: 1, columns: 20, width: 480 }, MP100);
    expect(g).toMatchObject({ tileWidth: 480, tileHeight: 2700, columns: 20, rows: 3, tiles: 60, interval: 10 });
    expect(g.columns * g.tileWidth * g.rows * g.tileHeight).toBeLessThanOrEqual(MP100);
  });
});

describe('checkPlannedOutput', () => {
  it('names the planned size; an encoder side limit counts as well', () => {
    expect(() => checkPlannedOutput('The frame', scaledFrame({ width: 2, height: 1600 }, 480), 100_000_000)).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: 'The frame would be 480×384000 pixels (184.3 megapixels), which exceeds the limit of 100 megapixels.' }),
    );
    expect(() => checkPlannedOutput('The frame', { width: 400, height: 20_000 }, 100_000_000, { format: 'webp' })).toThrow(
      expect.objectContaining({ code: 'invalid_option', message: 'The frame would be 400×20000 pixels, more than the limit of 16383 pixels on a side.' }),
    );
    expect(() => checkPlannedOutput('The frame', { width: 400, height: 20_000 }, 100_000_000, { format: 'png' })).not.toThrow();
    expect(() => checkPlannedOutput('The output', { width: 1000, height: 1000 }, 100_000_000, { frames: 120 })).toThrow(/1000×1000 × 120 frames pixels \(120 megapixels\)/);
  });
});
