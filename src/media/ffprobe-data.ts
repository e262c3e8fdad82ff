import { allowedDemuxer } from './ffmpeg-args';
import type { AvInfo } from './media.types';

export type { AvInfo };

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  bit_rate?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  channels?: number;
  sample_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}
interface RawProbe {
  format?: { format_name?: string; duration?: string; bit_rate?: string; tags?: Record<string, string> };
  streams?: RawStream[];
}

export function parseFfprobe(json: string): AvInfo {
  const raw = JSON.parse(json) as RawProbe;
  const streams = raw.streams ?? [];
  const formatName = raw.format?.format_name ?? '';
  // Cover art in mp3/m4a/flac shows up as a one-frame video stream marked attached_pic.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const kind = video ? 'video' : audio ? 'audio' : 'unknown';
  const rotation = video ? rotationOf(video) : 0;
  const rotated = Math.abs(rotation) % 180 === 90;
  const info: AvInfo = {
    formatName,
    demuxer: allowedDemuxer(formatName),
    kind,
    format: 'unknown',
    width: rotated ? video?.height : video?.width,
    height: rotated ? video?.width : video?.height,
    duration: positive(raw.format?.duration) ?? maxOf(streams.map((s) => positive(s.duration))),
    audioBitrate: positive(audio?.bit_rate) ?? positive(raw.format?.bit_rate),
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    bitrate: positive(raw.format?.bit_rate),
    frameRate: video ? (frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate)) : undefined,
    rotation: video ? rotation : undefined,
    channels: audio?.channels && audio.channels > 0 ? audio.channels : undefined,
    sampleRate: positive(audio?.sample_rate),
  };
  info.format = kind === 'video' ? videoFormatName(info, raw.format?.tags) : kind === 'audio' ? audioFormatName(info) : 'unknown';
  return info;
}

function videoFormatName(info: AvInfo, tags: Record<string, string> | undefined): string {
  const first = info.formatName.split(',')[0];
  if (first === 'mov') return tags?.major_brand?.trim() === 'qt' ? 'mov' : 'mp4';
  if (first === 'matroska') {
    const webmVideo = ['vp8', 'vp9', 'av1'].includes(info.videoCodec ?? '');
    const webmAudio = !info.audioCodec || ['opus', 'vorbis'].includes(info.audioCodec);
    return webmVideo && webmAudio ? 'webm' : 'mkv';
  }
  return first || 'unknown';
}

/** Audio is named by codec (the vocabulary of transcodeAudio), except PCM in WAV → wav. */
function audioFormatName(info: AvInfo): string {
  const first = info.formatName.split(',')[0];
  if (first === 'wav' || first === 'w64') return 'wav';
  return info.audioCodec ?? first ?? 'unknown';
}

function rotationOf(s: RawStream): number {
  const rotation = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(s.tags?.rotate ?? 0);
  return Number.isFinite(rotation) ? rotation : 0;
}

/** `30000/1001` → 29.97 (two decimals); `0/0` → undefined. */
function frameRate(ratio: string | undefined): number | undefined {
  const [num, den] = (ratio ?? '').split('/').map(Number);
  const fps = num / (den || 1);
  return Number.isFinite(fps) && fps > 0 ? Math.round(fps * 100) / 100 : undefined;
}

function positive(v: string | undefined): number | undefined {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function maxOf(values: (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length ? Math.max(...defined) : undefined;
}
