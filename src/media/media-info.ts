import type { AvInfo, ImageHeader, MediaInfo, ProbeResult } from './media.types';

/** media-info's description of a file from what its headers said (pure: the reading is MediaEngine.inspect's). */

export function imageInfo(header: ImageHeader, size: number): MediaInfo {
  return {
    kind: 'image',
    format: header.format,
    size,
    width: header.width,
    height: header.height,
    orientation: header.orientation ?? 1,
    ...((header.pages ?? 1) > 1 ? { frames: header.pages } : {}),
    hasAlpha: header.hasAlpha,
  };
}

export function avInfo(av: AvInfo, size: number): MediaInfo {
  return definedOnly({
    kind: av.kind === 'video' ? 'video' : 'audio',
    format: av.format,
    container: av.formatName,
    size,
    width: av.width,
    height: av.height,
    duration: av.duration,
    bitrate: av.bitrate,
    videoCodec: av.videoCodec,
    audioCodec: av.audioCodec,
    frameRate: av.frameRate,
    rotation: av.rotation || undefined,
    channels: av.channels,
    sampleRate: av.sampleRate,
  });
}

/** Documents: what the probe knows (the page count of a PDF). */
export function documentInfo(probe: ProbeResult, size: number): MediaInfo {
  return definedOnly({ kind: probe.kind, format: probe.format, size, pages: probe.pages });
}

function definedOnly(info: MediaInfo): MediaInfo {
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as MediaInfo;
}
