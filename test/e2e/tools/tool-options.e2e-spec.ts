import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { makeDocx, zipParts } from '../../support/document-fixtures';
import { expectError } from '../../support/expect-error';
import { creditBalance, waitForJob } from '../../support/jobs';
import { makeAudio, makeJpeg, makePng, makeVideo, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp } from '../../support/test-app';

const run = promisify(execFile);

/** ffprobe's streams and format of a downloaded output: what a player would see. */
async function ffprobe(path: string): Promise<{ format: { format_name: string; duration: string }; streams: Record<string, string | number>[] }> {
  return JSON.parse((await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', path])).stdout);
}

/** A one-sheet OpenDocument spreadsheet: a header row and one row of data. */
function makeOds(): Promise<Buffer> {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const cell = (v: string) => `<table:table-cell><text:p>${v}</text:p></table:table-cell>`;
  const table = `<table:table table:name="Stock"><table:table-row>${cell('Item')}${cell('Count')}</table:table-row><table:table-row>${cell('Widgets')}${cell('42')}</table:table-row></table:table>`;
  return zipParts([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', store: true },
    {
      name: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.2"><office:body><office:spreadsheet>${table}</office:spreadsheet></office:body></office:document-content>`,
    },
    {
      name: 'META-INF/manifest.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    },
  ]);
}

/**
 * The options peers' users expect, end to end: image-resize fit/position/format/quality,
 * video-convert size/trim/fps/format/no sound, audio-compress format/bitrate/channels/sample rate/trim,
 * document-convert to another format of the input's kind. Outputs are decoded (sharp, ffprobe, file
 * magic, unzip); bad values are 400 naming the field; values the input cannot honour fail the job
 * `invalid_option`, refunded.
 */
describe('tool options end to end', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: Awaited<ReturnType<typeof serveFiles>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-tool-options-'));
    await makeVideo(join(dir, 'clip.mp4'), 3, { size: '160x120', rate: 25 });
    await makeVideo(join(dir, 'tall.mp4'), 1, { size: '16x1600', audio: false });
    await makeAudio(join(dir, 'tone.wav'), 3);
    const noisy = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    files = await serveFiles({
      'photo.jpg': await makeJpeg(300, 200),
      'noisy.jpg': noisy,
      'icon.png': await makePng(64, 48),
      'clip.mp4': await readFile(join(dir, 'clip.mp4')),
      'tall.mp4': await readFile(join(dir, 'tall.mp4')),
      'tone.wav': await readFile(join(dir, 'tone.wav')),
      'letter.docx': await makeDocx(['Dear reader,', 'Options arrived.']),
      'stock.ods': await makeOds(),
      'notes.txt': Buffer.from('Plain notes, line one.\nLine two.\n'),
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ credits: 1000 });
  });

  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function submit(tool: string, input: string, options: Record<string, unknown>): Promise<string> {
    const { response, data, error } = await tenant.client.POST('/v1/jobs', { body: { tool, input: { url: files.url(input) }, options } as never });
    expect({ status: response.status, error }).toEqual({ status: 202, error: undefined });
    return (data as JobAccepted).id;
  }

  async function refused(tool: string, input: string, options: Record<string, unknown>, path: string): Promise<void> {
    const { response, error } = await tenant.client.POST('/v1/jobs', { body: { tool, input: { url: files.url(input) }, options } as never });
    expectError(response, error, 400, 'validation_failed');
    expect((error as { error: { details: { path: string }[] } }).error.details[0].path).toBe(path);
  }

  /** Runs the jobs together; each completes; each output downloaded: its path, Content-Type and file name. */
  async function completed(ids: string[], timeoutMs = 120_000): Promise<{ job: Job; path: string; contentType: string; name: string }[]> {
    const jobs = await Promise.all(ids.map((id) => waitForJob(tenant.client, id, timeoutMs)));
    return Promise.all(
      jobs.map(async (job) => {
        expect([job.id, job.state, job.error?.code]).toEqual([job.id, 'completed', undefined]);
        const res = await contractFetch(job.result!.downloadUrl!);
        expect(res.status).toBe(200);
        const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? '';
        const path = join(dir, `${job.id}-${name}`);
        await writeFile(path, Buffer.from(await res.arrayBuffer()));
        return { job, path, contentType: res.headers.get('content-type') ?? '', name: decodeURIComponent(name) };
      }),
    );
  }

  /** The job fails invalid_option with a message matching `message`, and its credits come back. */
  async function failsInvalidOption(tool: string, input: string, options: Record<string, unknown>, message: RegExp): Promise<void> {
    const before = await creditBalance(tenant.client);
    const job = await waitForJob(tenant.client, await submit(tool, input, options), 120_000);
    expect({ state: job.state, code: job.error?.code }).toEqual({ state: 'failed', code: 'invalid_option' });
    expect(job.error!.message).toMatch(message);
    expect(await creditBalance(tenant.client)).toBe(before);
  }

  it('image-resize: fit, position, format and quality (sharp decodes each output); bad values 400', async () => {
    const [cover, contain, fill, low, high, plain] = await completed([
      await submit('image-resize', 'photo.jpg', { width: 100, height: 100, fit: 'cover', position: 'attention', format: 'webp', quality: 60 }),
      await submit('image-resize', 'photo.jpg', { width: 100, height: 100, fit: 'contain', format: 'png' }),
      await submit('image-resize', 'icon.png', { width: 40, height: 40, fit: 'fill', format: 'avif' }),
      await submit('image-resize', 'noisy.jpg', { width: 300, quality: 20 }),
      await submit('image-resize', 'noisy.jpg', { width: 300, quality: 95 }),
      await submit('image-resize', 'photo.jpg', { width: 150, height: 150 }),
    ]);
    expect(await sharp(cover.path).metadata()).toMatchObject({ format: 'webp', width: 100, height: 100 });
    expect([cover.contentType, cover.name, cover.job.result!.outputFormat]).toEqual(['image/webp', 'photo.webp', 'webp']);
    // contain pads the 3:2 photo to a square: transparent bands above and below it.
    expect(await sharp(contain.path).metadata()).toMatchObject({ format: 'png', width: 100, height: 100, hasAlpha: true });
    const { data } = await sharp(contain.path).raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0); // top-left pixel's alpha
    expect(data[(50 * 100 + 50) * 4 + 3]).toBe(255); // the centre is the photo
    expect([contain.contentType, contain.name]).toEqual(['image/png', 'photo.png']);
    expect(await sharp(fill.path).metadata()).toMatchObject({ format: 'heif', compression: 'av1', width: 40, height: 40 });
    expect([fill.contentType, fill.name]).toEqual(['image/avif', 'icon.avif']);
    expect(low.job.result!.outputSize! * 2).toBeLessThan(high.job.result!.outputSize!);
    expect(await sharp(low.path).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 200 });
    // Without the new options: fits inside, the input's format, as before.
    expect(await sharp(plain.path).metadata()).toMatchObject({ format: 'jpeg', width: 150, height: 100 });

    await refused('image-resize', 'photo.jpg', { width: 10, fit: 'stretch' }, 'body/options/fit');
    await refused('image-resize', 'photo.jpg', { width: 10, format: 'bmp' }, 'body/options/format');
    await refused('image-resize', 'photo.jpg', { width: 10, quality: 0 }, 'body/options/quality');
    await refused('image-resize', 'photo.jpg', { width: 10, height: 10, fit: 'contain', position: 'entropy' }, 'body/options/position');
    await refused('image-resize', 'photo.jpg', { width: 10, height: 10, maintainAspectRatio: false, fit: 'cover' }, 'body/options/fit');
  }, 240_000);

  it('video-convert: width/height, start/duration, fps, format, audio false (ffprobe); a start past the end or an oversized output fails invalid_option, refunded', async () => {
    const [webm, mov] = await completed(
      [
        await submit('video-convert', 'clip.mp4', { format: 'webm', width: 80, start: 1, duration: 1, fps: 10, audio: false }),
        await submit('video-convert', 'clip.mp4', { format: 'mov', height: 60 }),
      ],
      240_000,
    );
    const w = await ffprobe(webm.path);
    expect(w.format.format_name).toContain('webm');
    expect(w.streams.map((s) => s.codec_type)).toEqual(['video']);
    expect(w.streams[0]).toMatchObject({ codec_name: 'vp9', width: 80, height: 60, r_frame_rate: '10/1' });
    expect(Number(w.format.duration)).toBeGreaterThan(0.85);
    expect(Number(w.format.duration)).toBeLessThan(1.2);
    expect([webm.contentType, webm.name]).toEqual(['video/webm', 'clip.webm']);
    const m = await ffprobe(mov.path);
    expect(m.format.format_name).toContain('mov');
    expect(m.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 80, height: 60 });
    expect(m.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(Number(m.format.duration)).toBeGreaterThan(2.8);
    expect([mov.contentType, mov.name]).toEqual(['video/quicktime', 'clip.mov']);

    await failsInvalidOption('video-convert', 'clip.mp4', { start: 10 }, /start is 10 s, at or past the end of the input \(3 s long\)/);
    // 16×1600 scaled to 7680 wide would be 7680×768000: refused before ffmpeg allocates it.
    await failsInvalidOption('video-convert', 'tall.mp4', { width: 7680 }, /The video would be 7680×768000 pixels/);
    await refused('video-convert', 'clip.mp4', { width: 8 }, 'body/options/width');
    await refused('video-convert', 'clip.mp4', { fps: 0 }, 'body/options/fps');
    await refused('video-convert', 'clip.mp4', { audio: 'no' }, 'body/options/audio');
    await refused('video-convert', 'clip.mp4', { start: -1 }, 'body/options/start');
  }, 300_000);

  it('audio-compress: format, bitrate, channels, sampleRate, start/duration (ffprobe); a start past the end fails invalid_option, refunded', async () => {
    const [opus, aac, wav] = await completed([
      await submit('audio-compress', 'tone.wav', { format: 'opus', channels: 2, start: 0.5, duration: 1.5, bitrate: '64k' }),
      await submit('audio-compress', 'tone.wav', { format: 'aac', channels: 1, sampleRate: 22050, bitrate: '64k' }),
      await submit('audio-compress', 'tone.wav', { format: 'wav', sampleRate: 8000, channels: 2 }),
    ]);
    const o = await ffprobe(opus.path);
    expect(o.format.format_name).toBe('ogg');
    expect(o.streams).toEqual([expect.objectContaining({ codec_name: 'opus', channels: 2 })]);
    expect(Number(o.format.duration)).toBeGreaterThan(1.4);
    expect(Number(o.format.duration)).toBeLessThan(1.6);
    expect([opus.contentType, opus.name]).toEqual(['audio/ogg', 'tone.opus']);
    const a = await ffprobe(aac.path);
    expect(a.streams).toEqual([expect.objectContaining({ codec_name: 'aac', channels: 1, sample_rate: '22050' })]);
    expect(Number(a.format.duration)).toBeGreaterThan(2.9);
    expect([aac.contentType, aac.name]).toEqual(['audio/mp4', 'tone.m4a']);
    const v = await ffprobe(wav.path);
    expect(v.streams).toEqual([expect.objectContaining({ codec_name: 'pcm_s16le', channels: 2, sample_rate: '8000' })]);
    expect([wav.contentType, wav.name]).toEqual(['audio/wav', 'tone.wav']);

    await failsInvalidOption('audio-compress', 'tone.wav', { start: 5 }, /start is 5 s, at or past the end of the input \(3 s long\)/);
    await refused('audio-compress', 'tone.wav', { format: 'opus', sampleRate: 44100 }, 'body/options/sampleRate');
    await refused('audio-compress', 'tone.wav', { channels: 3 }, 'body/options/channels');
    await refused('audio-compress', 'tone.wav', { format: 'flac' }, 'body/options/format');
    await refused('audio-compress', 'tone.wav', { duration: 0 }, 'body/options/duration');
  }, 240_000);

  it('document-convert: format within the input kind (file magic, unzip, the CSV cell); a format of another kind fails invalid_option, refunded', async () => {
    const [odt, csv, docx] = await completed(
      [
        await submit('document-convert', 'letter.docx', { format: 'odt' }),
        await submit('document-convert', 'stock.ods', { format: 'csv' }),
        await submit('document-convert', 'notes.txt', { format: 'docx' }),
      ],
      240_000,
    );
    expect((await fileTypeFromFile(odt.path))?.ext).toBe('odt');
    expect((await run('unzip', ['-p', odt.path, 'content.xml'])).stdout).toContain('Options arrived.');
    expect([odt.contentType, odt.name, odt.job.result!.outputFormat, odt.job.result!.message]).toEqual([
      'application/vnd.oasis.opendocument.text',
      'letter.odt',
      'odt',
      'Converted DOCX to ODT.',
    ]);
    expect((await readFile(csv.path, 'utf8')).trim().split(/\r?\n/)).toEqual(['Item,Count', 'Widgets,42']);
    expect([csv.contentType, csv.name]).toEqual(['text/csv', 'stock.csv']);
    expect((await run('unzip', ['-l', docx.path])).stdout).toContain('word/document.xml');
    expect((await run('unzip', ['-p', docx.path, 'word/document.xml'])).stdout).toContain('Plain notes, line one.');
    expect(docx.name).toBe('notes.docx');

    await failsInvalidOption('document-convert', 'stock.ods', { format: 'docx' }, /format docx does not fit a spreadsheet \(ods\): choose pdf, xlsx, ods, csv/);
    await failsInvalidOption('document-convert', 'letter.docx', { format: 'pptx' }, /does not fit a text document \(docx\)/);
    await refused('document-convert', 'letter.docx', { format: 'doc' }, 'body/options/format');
  }, 300_000);
});
