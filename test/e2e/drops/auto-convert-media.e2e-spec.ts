import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractFetch } from '../../support/contract-check';
import { makeAudio, makeVideo, probe } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * docs/decisions.md §5 for video and audio: a drop's `autoConvertTo` / `autoCompress` run the
 * jobs' ffmpeg tools on an arriving file (src/submissions/conversion-plan.ts); the owner downloads
 * the processed output, which ffprobe decodes as the target container and codec.
 */
describe('drop auto-conversion of video and audio', () => {
  let t: TestApp;
  let dir: string;
  let video: Buffer;
  let audio: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-auto-media-'));
    await makeVideo(join(dir, 'clip.mp4'), 1);
    await makeAudio(join(dir, 'tone.wav'), 2);
    video = await readFile(join(dir, 'clip.mp4'));
    audio = await readFile(join(dir, 'tone.wav'));
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', STORAGE_DIR: join(dir, 'files') });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function send(slug: string, file: Buffer, name: string, type: string) {
    const form = new FormData();
    form.append('senderName', 'Ada');
    form.append('file', new Blob([new Uint8Array(file)], { type }), name);
    const res = await contractFetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    return (await res.json()).submission;
  }

  /** Polls the owner's view until the worker is done with the submission. */
  async function waitProcessed(owner: Tenant, slug: string, id: string) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { data } = await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id } } });
      if (data!.submission.status !== 'processing') return data!.submission;
      if (Date.now() > deadline) throw new Error(`submission ${id} still processing`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** Downloads the processed file through its signed link into `dir`; returns its path and disposition. */
  async function downloadProcessed(owner: Tenant, slug: string, id: string, name: string) {
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id }, query: { processed: true } } });
    expect(link.data).toMatchObject({ file: 'processed' });
    const res = await contractFetch(link.data!.url);
    expect(res.status).toBe(200);
    const path = join(dir, `${id}-${name}`);
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    return { path, disposition: res.headers.get('content-disposition') ?? '', type: res.headers.get('content-type') ?? '' };
  }

  it('an MP4 sent to an autoConvertTo webm drop is downloadable as WebM (VP8/VP9 video)', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('vid');
    expect((await owner.client.POST('/v1/drops', { body: { name: 'Clips', slug, allowedKinds: 'video', autoConvertTo: 'webm' } })).response.status).toBe(201);
    const submission = await send(slug, video, 'clip.mp4', 'video/mp4');
    expect(submission).toMatchObject({ status: 'processing', fileKind: 'video' });

    const done = await waitProcessed(owner, slug, submission.id);
    expect(done).toMatchObject({ status: 'ready', fileName: 'clip.mp4', processedFileName: 'clip.webm', processingError: null });
    const out = await downloadProcessed(owner, slug, submission.id, 'clip.webm');
    expect(out.disposition).toContain('clip.webm');
    const info = await probe(out.path);
    expect(info.format).toContain('webm');
    const stream = info.streams.find((s) => s.codec_type === 'video');
    expect(['vp8', 'vp9']).toContain(stream?.codec_name);
    expect(stream).toMatchObject({ width: 160, height: 120 });
    expect(info.duration).toBeGreaterThan(0.5);

    // The original stays downloadable, byte for byte.
    const original = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id } } });
    expect(Buffer.from(await (await contractFetch(original.data!.url)).arrayBuffer()).equals(video)).toBe(true);
  }, 180_000);

  it('autoCompress re-encodes a video as H.264 in MP4', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('vidc');
    await owner.client.POST('/v1/drops', { body: { name: 'Squeeze clips', slug, autoCompress: true } });
    const submission = await send(slug, video, 'clip.mp4', 'video/mp4');
    const done = await waitProcessed(owner, slug, submission.id);
    expect(done).toMatchObject({ status: 'ready', processedFileName: 'clip.mp4' });
    const info = await probe((await downloadProcessed(owner, slug, submission.id, 'clip.mp4')).path);
    expect(info.format).toContain('mp4');
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 160, height: 120 });
  }, 180_000);

  it('autoCompress turns a WAV into a 96k MP3', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('aud');
    await owner.client.POST('/v1/drops', { body: { name: 'Voice notes', slug, allowedKinds: 'audio', autoCompress: true } });
    const submission = await send(slug, audio, 'tone.wav', 'audio/wav');
    expect(submission).toMatchObject({ status: 'processing', fileKind: 'audio' });
    const done = await waitProcessed(owner, slug, submission.id);
    expect(done).toMatchObject({ status: 'ready', fileName: 'tone.wav', processedFileName: 'tone.mp3' });
    const out = await downloadProcessed(owner, slug, submission.id, 'tone.mp3');
    const info = await probe(out.path);
    expect(info.format).toBe('mp3');
    expect(info.streams).toHaveLength(1);
    expect(info.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'mp3' });
    expect(Number(info.streams[0].bit_rate)).toBe(96_000);
    expect(info.duration).toBeGreaterThan(1.5);
    expect((await readFile(out.path)).length).toBeLessThan(audio.length / 5);
  }, 180_000);

  it('an audio drop with autoConvertTo opus yields Ogg/Opus', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('opus');
    await owner.client.POST('/v1/drops', { body: { name: 'Podcasts', slug, allowedKinds: 'audio', autoConvertTo: 'opus' } });
    const submission = await send(slug, audio, 'tone.wav', 'audio/wav');
    const done = await waitProcessed(owner, slug, submission.id);
    expect(done).toMatchObject({ status: 'ready', processedFileName: expect.stringMatching(/^tone\.(opus|ogg)$/) });
    const info = await probe((await downloadProcessed(owner, slug, submission.id, done.processedFileName!)).path);
    expect(info.format).toBe('ogg');
    expect(info.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'opus' });
  }, 180_000);
});
