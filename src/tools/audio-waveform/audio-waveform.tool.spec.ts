import { execFile } from 'node:child_process';
import { readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { makeAudio, makeJpeg, makeVideo } from '../../../test/support/media-fixtures';
import { ToolTestKit } from '../tool-testing';
import { audioWaveform } from './audio-waveform.tool';

const kit = new ToolTestKit();
let wav: string; // 3 s, 440 Hz at 1/8 of full scale (lavfi sine)
let mp3: string;

beforeAll(async () => {
  await kit.setUp();
  await makeAudio((wav = kit.path('tone.wav')), 3);
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', (mp3 = kit.path('tone.mp3'))]);
});
afterAll(() => kit.tearDown());

interface Waveform {
  version: number;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: number;
  length: number;
  data: number[];
}

describe('audio-waveform', () => {
  it('is listed as an audio tool for audio:write at 1 credit', () => {
    expect(audioWaveform).toMatchObject({
      slug: 'audio-waveform',
      kind: 'audio',
      queue: 'audio-standard-queue',
      scope: 'audio:write',
      cost: 1,
      optionsSchema: 'AudioWaveformOptions',
    });
  });

  it('writes BBC audiowaveform JSON: `points` min/max pairs within the range of its bits, the tone at 1/8 of full scale', async () => {
    const { output, message, progress } = await kit.run(audioWaveform, wav, { points: 300 });
    expect(output).toMatchObject({ format: 'json' });
    expect(message).toBe('Waveform of 300 points.');
    expect(progress.at(-1)).toBe(100);
    const json = JSON.parse(await readFile(output.path, 'utf8')) as Waveform;
    expect(json).toMatchObject({ version: 2, channels: 1, sample_rate: 44_100, bits: 8, length: 300, samples_per_pixel: 441 });
    expect(json.data).toHaveLength(600);
    for (const v of json.data) expect(v >= -128 && v <= 127 && Number.isInteger(v)).toBe(true);
    // Every point spans several periods of the sine: its peaks, ±4096 in 16 bits, are ±16 in 8.
    expect(Math.max(...json.data)).toBe(15);
    expect(Math.min(...json.data)).toBe(-16);
    expect(output.size).toBe((await stat(output.path)).size);
  });

  it('16 bits, from an MP3 and from the sound of a video', async () => {
    const fromMp3 = JSON.parse(await readFile((await kit.run(audioWaveform, mp3, { points: 50, bits: 16 })).output.path, 'utf8')) as Waveform;
    expect(fromMp3).toMatchObject({ bits: 16, length: 50 });
    expect(Math.max(...fromMp3.data)).toBeGreaterThan(3000);
    expect(Math.max(...fromMp3.data)).toBeLessThan(5000);
    const video = kit.path('clip.mp4');
    await makeVideo(video, 2);
    const outDir = kit.path('video-out');
    const fromVideo = await kit.media.audioWaveform(video, outDir, { format: 'json', points: 20 });
    expect((JSON.parse(await readFile(fromVideo.path, 'utf8')) as Waveform).length).toBe(20);
  });

  it('draws a width × height PNG in the colour, on transparent', async () => {
    const { output, message } = await kit.run(audioWaveform, wav, { format: 'png', width: 400, height: 100, color: '#ff0000' });
    expect(output).toMatchObject({ format: 'png', width: 400, height: 100 });
    expect(message).toBe('Waveform of 400×100 pixels.');
    const { data, info } = await sharp(output.path).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: 'raw', width: 400, height: 100, channels: 4 });
    const at = (x: number, y: number) => [...data.subarray((y * 400 + x) * 4, (y * 400 + x) * 4 + 4)];
    expect(at(200, 50)).toEqual([255, 0, 0, 255]); // the tone around the middle line
    expect(at(200, 2)).toEqual([0, 0, 0, 0]); // 1/8 of full scale does not reach the top
  });

  it('a truncated M4A, an image and a file that is no media fail with unsupported_input and leave nothing behind', async () => {
    const m4a = kit.path('tone.m4a');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'aac', '-movflags', '+faststart', m4a]);
    const cut = kit.path('cut.m4a');
    await writeFile(cut, await readFile(m4a));
    await truncate(cut, (await stat(m4a)).size >> 1); // the header still says 3 s
    const outDir = kit.path('hostile-out');
    await expect(kit.media.audioWaveform(cut, outDir, { format: 'json' })).rejects.toMatchObject({ code: 'unsupported_input', message: 'The audio file is truncated or corrupt.' });
    const jpeg = kit.path('photo.jpg');
    await writeFile(jpeg, await makeJpeg(50, 50));
    await expect(kit.media.audioWaveform(jpeg, outDir, { format: 'png' })).rejects.toMatchObject({ code: 'unsupported_input' });
    const text = kit.path('notes.txt');
    await writeFile(text, 'not audio at all');
    await expect(kit.media.audioWaveform(text, outDir, { format: 'json' })).rejects.toMatchObject({ code: 'unsupported_input' });
    expect(await readdir(outDir).catch(() => [])).toEqual([]);
  });

  it('past its time limit, ffmpeg is killed and the job times out', async () => {
    const { MediaEngine } = await import('../../media/media-engine');
    const slow = new MediaEngine({ timeLimitMs: 1 });
    await expect(slow.audioWaveform(wav, kit.path('slow-out'), { format: 'json' })).rejects.toMatchObject({ code: 'timeout' });
  });
});
