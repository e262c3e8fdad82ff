import { execFile } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { makePdf } from '../../../test/support/document-fixtures';
import { makeAudio, makeJpeg, makeVideo } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { mediaInfo } from './media-info.tool';

const kit = new ToolTestKit();

beforeAll(() => kit.setUp());
afterAll(() => kit.tearDown());

describe('media-info', () => {
  it('is free, takes any media kind, and any media scope may submit it', () => {
    expect(mediaInfo).toMatchObject({ slug: 'media-info', kind: 'any', cost: 0, optionsSchema: 'MediaInfoOptions', outputFormats: [] });
    expect(mediaInfo.scope).toEqual(['image:write', 'video:write', 'audio:write', 'documents:write']);
  });

  it('describes an image from its header: oriented size, EXIF orientation, alpha; no output file', async () => {
    const path = kit.path('rotated.jpg');
    await writeFile(
      path,
      await sharp(await makeJpeg(300, 200))
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer(),
    );
    const run = await kit.runTool(mediaInfo, path, {});
    expect(run.output).toBeUndefined();
    expect(run.message).toBe('Image file, jpeg.');
    expect(run.details).toEqual({ info: { kind: 'image', format: 'jpeg', size: (await stat(path)).size, width: 200, height: 300, orientation: 6, hasAlpha: false } });
  });

  it('counts the frames of an animation', async () => {
    const path = kit.path('anim.webp');
    const frames = await Promise.all(
      [0, 1, 2].map((i) =>
        sharp({ create: { width: 20, height: 10, channels: 4, background: { r: i * 80, g: 0, b: 0, alpha: 0.5 } } })
          .raw()
          .toBuffer(),
      ),
    );
    await sharp(Buffer.concat(frames), { raw: { width: 20, height: 30, channels: 4, pageHeight: 10 } } as never)
      .webp()
      .toFile(path);
    const { details } = await kit.runTool(mediaInfo, path, {});
    expect(details!.info).toMatchObject({ kind: 'image', format: 'webp', width: 20, height: 10, frames: 3, hasAlpha: true });
  });

  it('describes a video: container, duration, bitrate, codecs, frame rate, its sound', async () => {
    const path = kit.path('clip.mp4');
    await makeVideo(path, 2, { rate: 25 });
    const { details, message } = await kit.runTool(mediaInfo, path, {});
    expect(message).toBe('Video file, mp4.');
    const info = details!.info as Record<string, unknown>;
    expect(info).toMatchObject({
      kind: 'video',
      format: 'mp4',
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      width: 160,
      height: 120,
      videoCodec: 'h264',
      audioCodec: 'aac',
      frameRate: 25,
      channels: 1,
      sampleRate: 44_100,
    });
    expect(info.duration).toBeCloseTo(2, 0);
    expect(info.bitrate).toBeGreaterThan(0);
    expect(info.rotation).toBeUndefined();
  });

  it('describes audio: codec, channels, sample rate, duration', async () => {
    const wav = kit.path('tone.wav');
    await makeAudio(wav, 2);
    const mp3 = kit.path('stereo.mp3');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-ac', '2', '-ar', '48000', '-c:a', 'libmp3lame', '-b:a', '96k', mp3]);
    const pcm = (await kit.runTool(mediaInfo, wav, {})).details!.info as Record<string, number>;
    expect(pcm).toMatchObject({ kind: 'audio', format: 'wav', audioCodec: 'pcm_s16le', channels: 1, sampleRate: 44_100 });
    expect(pcm.bitrate / 705_600).toBeCloseTo(1, 2); // 16 bits × 44.1 kHz, and the header
    const info = (await kit.runTool(mediaInfo, mp3, {})).details!.info as Record<string, unknown>;
    expect(info).toMatchObject({ kind: 'audio', format: 'mp3', audioCodec: 'mp3', channels: 2, sampleRate: 48_000 });
    expect(info.duration).toBeCloseTo(2, 0);
    expect(info).not.toHaveProperty('width');
  });

  it('describes a PDF: a document, its page count', async () => {
    const path = kit.path('three.pdf');
    await writeFile(path, makePdf(3));
    const { details, output } = await kit.runTool(mediaInfo, path, {});
    expect(output).toBeUndefined();
    expect(details!.info).toEqual({ kind: 'document', format: 'pdf', size: (await stat(path)).size, pages: 3 });
  });
});
