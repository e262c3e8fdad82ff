'use strict';
/**
 * 8. The issue-19 tools, each beside the bare library or binary doing the same work on the same input
 * in this process: CPU-ms per job (the service's own CPU plus its reaped ffmpeg/ffprobe children,
 * i.e. the API calls, the worker, libvips and the child processes; Postgres and Redis not counted).
 *   image-thumbnail 2725×2225 JPEG → 320×320 WebP (smart crop) vs sharp + thumbhash alone;
 *   audio-waveform 60 s stereo MP3 → 800-point JSON vs `ffmpeg … -f s16le` to nowhere (no peaks);
 *   media-info of a 2 s MP4 vs `ffprobe -show_format -show_streams` alone.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const sharp = require('sharp');
const { fmt, log, sleep } = require('../lib');

const CONCURRENCY = 2;

/** CPU-ms of a process and of its children it has reaped (utime, stime, cutime, cstime of /proc/<pid>/stat). */
function cpuWithChildren(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

async function pool(n, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

async function serviceCpuPerJob(ctx, n, body, check) {
  const before = cpuWithChildren(ctx.app.pid);
  await pool(n, CONCURRENCY, async () => {
    const accepted = await ctx.api('POST', '/v1/jobs', body, { 'idempotency-key': randomUUID() });
    for (;;) {
      const { job } = await ctx.api('GET', `/v1/jobs/${accepted.id}`);
      if (job.state === 'completed') return check(job);
      if (job.state === 'failed' || job.state === 'canceled') throw new Error(`${body.tool} job ${job.state}: ${JSON.stringify(job.error)}`);
      await sleep(50);
    }
  });
  return (cpuWithChildren(ctx.app.pid) - before) / n;
}

async function referenceCpuPerJob(n, task) {
  const before = cpuWithChildren(process.pid);
  await pool(n, CONCURRENCY, task);
  return (cpuWithChildren(process.pid) - before) / n;
}

function serve(files, port) {
  const server = http.createServer((req, res) => {
    const body = files[(req.url ?? '/').slice(1)];
    res.writeHead(body ? 200 : 404, body ? { 'content-length': body.length } : {}).end(body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

module.exports = async function mediaTools(ctx) {
  const n = Number(process.env.BENCH_JOBS ?? (ctx.quick ? 4 : 16));
  const { rgbaToThumbHash } = await import('thumbhash');
  const dir = fs.mkdtempSync(path.join(ctx.tmpDir, 'tools-'));
  const jpeg = path.join(dir, 'photo.jpg');
  const mp3 = path.join(dir, 'talk.mp3');
  const mp4 = path.join(dir, 'clip.mp4');
  await sharp({ create: { width: 109, height: 89, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(2725, 2225, { kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toFile(jpeg);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=220:duration=60',
    '-f',
    'lavfi',
    '-i',
    'anoisesrc=d=60:a=0.1',
    '-filter_complex',
    'amerge',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    mp3,
  ]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    mp4,
  ]);
  const server = await serve({ 'photo.jpg': fs.readFileSync(jpeg), 'talk.mp3': fs.readFileSync(mp3), 'clip.mp4': fs.readFileSync(mp4) }, ctx.fixturePort);
  const url = (name) => `http://127.0.0.1:${ctx.fixturePort}/${name}`;
  const rows = [];
  try {
    const cases = [
      {
        name: 'image-thumbnail: 2725×2225 JPEG → 320×320 WebP, attention crop, ThumbHash',
        body: { tool: 'image-thumbnail', input: { url: url('photo.jpg') }, options: { width: 320, height: 320 } },
        check: (job) => {
          if (job.result.width !== 320 || !job.result.placeholder?.thumbhash) throw new Error(`thumbnail ${JSON.stringify(job.result)}`);
        },
        reference: 'sharp + thumbhash alone',
        ref: async (i) => {
          const out = path.join(dir, `ref-${i}.webp`);
          await sharp(jpeg, { failOn: 'error', autoOrient: true })
            .resize({ width: 320, height: 320, fit: 'cover', position: sharp.strategy.attention })
            .webp({ quality: 80 })
            .toFile(out);
          const { data, info } = await sharp(out).resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
          rgbaToThumbHash(info.width, info.height, data);
          await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).stats();
        },
      },
      {
        name: 'audio-waveform: 60 s stereo MP3 → 800-point JSON',
        body: { tool: 'audio-waveform', input: { url: url('talk.mp3') }, options: { points: 800 } },
        check: (job) => {
          if (job.result.outputFormat !== 'json') throw new Error(`waveform ${JSON.stringify(job.result)}`);
        },
        reference: 'ffmpeg decode to s16le alone',
        ref: () =>
          new Promise((resolve, reject) =>
            require('node:child_process').execFile('ffmpeg', ['-v', 'error', '-i', mp3, '-ac', '1', '-c:a', 'pcm_s16le', '-f', 's16le', '-y', '/dev/null'], (err) =>
              err ? reject(err) : resolve(),
            ),
          ),
      },
      {
        name: 'media-info: 2 s MP4',
        body: { tool: 'media-info', input: { url: url('clip.mp4') } },
        check: (job) => {
          if (job.result.info?.videoCodec !== 'h264') throw new Error(`media-info ${JSON.stringify(job.result)}`);
        },
        reference: 'ffprobe alone',
        ref: () =>
          new Promise((resolve, reject) =>
            require('node:child_process').execFile('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', mp4], (err) => (err ? reject(err) : resolve())),
          ),
      },
    ];
    for (const c of cases) {
      await serviceCpuPerJob(ctx, 2, c.body, c.check); // warm-up
      await referenceCpuPerJob(2, c.ref);
      const ref = await referenceCpuPerJob(n, c.ref);
      const svc = await serviceCpuPerJob(ctx, n, c.body, c.check);
      log(`media-tools: ${c.body.tool}: service ${fmt.n(svc)} CPU-ms/job, ${c.reference} ${fmt.n(ref)}`);
      rows.push({
        name: `${c.name} (${n} jobs)`,
        service: `${fmt.n(svc)} CPU-ms/job`,
        reference: `${fmt.n(ref)} CPU-ms/job (${c.reference})`,
        ratio: `${fmt.n(svc / ref, 1)}× the CPU`,
        target: 'measured',
        met: true,
        raw: { jobs: n, serviceCpuMs: svc, referenceCpuMs: ref },
      });
    }
    return rows;
  } finally {
    server.close();
    server.closeAllConnections?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
