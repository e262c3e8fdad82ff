import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/** A JPEG of the given size (the sharp benchmark's 2725×2225 by default), made here, not downloaded. */
export function makeJpeg(width = 2725, height = 2225): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([
      { input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="orange"/></svg>`) },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * A decompression bomb: a PNG whose header claims width×height RGB pixels but holds one (zero) row
 * of data — a few hundred bytes that would decode to gigabytes.
 */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1 + width * 3))), chunk('IEND', Buffer.alloc(0))]);
}

export function makePng(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } })
    .png()
    .toBuffer();
}

export interface VideoOptions {
  /** Default 160x120. */
  size?: string;
  /** Frames a second, default 25. */
  rate?: number;
  /** The lavfi picture: `testsrc` (default) or the busier, slower to encode `testsrc2`. */
  source?: 'testsrc' | 'testsrc2';
  /** Filters applied to the picture, e.g. `noise=alls=30:allf=t+u` (harder still to encode). */
  filter?: string;
  /** A 440 Hz tone as AAC alongside (default true). */
  audio?: boolean;
  /** More output options, e.g. `['-crf', '35']` or `['-movflags', '+faststart']`. */
  extra?: string[];
}

/** An H.264 video from ffmpeg's lavfi sources, with a tone unless `audio` is false. */
export async function makeVideo(path: string, seconds = 2, options: VideoOptions = {}): Promise<void> {
  const { size = '160x120', rate = 25, source = 'testsrc', filter, audio = true, extra = [] } = options;
  const picture = `${source}=size=${size}:rate=${rate}:duration=${seconds}${filter ? `,${filter}` : ''}`;
  const tone = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : [];
  const audioOut = audio ? ['-c:a', 'aac', '-shortest'] : [];
  await run(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', picture, ...tone, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...audioOut, ...extra, path]);
}

export async function makeAudio(path: string, seconds = 3): Promise<void> {
  await run(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'pcm_s16le', path]);
}

export interface ProbeInfo {
  format: string;
  duration: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; bit_rate?: string }[];
  bitRate: number;
}

/** Decodes a file with ffprobe: what a user's player would see. */
export async function probe(path: string): Promise<ProbeInfo> {
  const { stdout } = await run(FFPROBE, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path]);
  const json = JSON.parse(stdout);
  return { format: json.format.format_name, duration: Number(json.format.duration), streams: json.streams, bitRate: Number(json.format.bit_rate) };
}

/** Serves fixed files over HTTP on 127.0.0.1 (an allowed private host in these tests). */
export async function serveFiles(
  files: Record<string, Buffer>,
): Promise<{ url: (name: string) => string; hits: Record<string, number>; close: () => Promise<void>; server: Server }> {
  const hits: Record<string, number> = {};
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    hits[name] = (hits[name] ?? 0) + 1;
    const body = files[name];
    if (!body) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-length', body.length);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    hits,
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
