'use strict';
/**
 * 8. The issue-19 tools, each beside the bare library or binary doing the same work on the same input
 * in this process: CPU-ms per job (the service's own CPU plus its reaped ffmpeg/ffprobe children,
 * i.e. the API call, the worker, libvips and the child processes; Postgres and Redis not counted),
 * each job POSTed with `Prefer: wait` (one request), the two sides alternated in rounds of 4 jobs.
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
const { fmt, log, threadCpuMs } = require('../lib');

const CONCURRENCY = 2;

/** CPU-ms of a process: its own (utime, stime) and that of the children it has reaped (cutime, cstime of /proc/<pid>/stat). */
function cpuSplit(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { own: (Number(f[11]) + Number(f[12])) * 10, children: (Number(f[13]) + Number(f[14])) * 10 };
}
function cpuWithChildren(pid) {
  const { own, children } = cpuSplit(pid);
  return own + children;
}

async function pool(n, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/**
 * One job, POSTed with `Prefer: wait`: the answer is the finished job (one request, as a client
 * that wants the result does it), so the figure is the job's, not a polling rate's.
 */
async function runJob(ctx, body) {
  // 25 s a request: the socket's idle timeout (UPLOAD_IDLE_TIMEOUT_S, 30 s) would end a longer wait.
  // A keep-alive socket the server closed as the request went out fails it: sent again (the idempotency key makes that safe).
  const call = async (method, url, extra = {}, tries = 3) => {
    const res = await fetch(`${ctx.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', prefer: 'wait=25', ...extra },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    }).catch((err) => {
      if (tries > 1) return undefined;
      throw new Error(`${method} ${url}: ${err.message} (${err.cause?.message ?? err.cause})`);
    });
    if (!res) return call(method, url, extra, tries - 1);
    return { status: res.status, job: (await res.json()).job };
  };
  let { status, job } = await call('POST', '/v1/jobs', { 'idempotency-key': randomUUID() });
  while (status < 300 && (job?.state === 'queued' || job?.state === 'running')) ({ status, job } = await call('GET', `/v1/jobs/${job.id}`));
  if (job?.state !== 'completed') throw new Error(`${body.tool} job answered ${status} ${job?.state}: ${JSON.stringify(job?.error)}`);
  return job;
}

/** CPU-ms per job of the service (its own threads by group, and its reaped children: ffprobe, ffmpeg). */
async function serviceCpuPerJob(ctx, n, body, check) {
  const before = cpuSplit(ctx.app.pid);
  const threadsBefore = threadCpuMs(ctx.app.pid);
  await pool(n, CONCURRENCY, async () => check(await runJob(ctx, body)));
  const after = cpuSplit(ctx.app.pid);
  const threadsAfter = threadCpuMs(ctx.app.pid);
  const split = { children: (after.children - before.children) / n };
  for (const [group, ms] of Object.entries(threadsAfter)) split[group] = (ms - (threadsBefore[group] ?? 0)) / n;
  return { cpu: (after.own + after.children - before.own - before.children) / n, split };
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
    // Rounds of ROUND jobs each side, alternated, so a change of the machine's load hits both.
    const ROUND = 4;
    const rounds = Math.max(1, Math.round(n / ROUND));
    for (const c of cases) {
      await serviceCpuPerJob(ctx, 2, c.body, c.check); // warm-up
      await referenceCpuPerJob(2, c.ref);
      let svc = 0;
      let ref = 0;
      const split = {};
      for (let r = 0; r < rounds; r++) {
        ref += (await referenceCpuPerJob(ROUND, c.ref)) / rounds;
        const s = await serviceCpuPerJob(ctx, ROUND, c.body, c.check);
        svc += s.cpu / rounds;
        for (const [group, ms] of Object.entries(s.split)) split[group] = (split[group] ?? 0) + ms / rounds;
      }
      const where = Object.entries(split)
        .map(([group, ms]) => `${group} ${fmt.n(ms)}`)
        .join(', ');
      log(`media-tools: ${c.body.tool}: service ${fmt.n(svc)} CPU-ms/job (${where}), ${c.reference} ${fmt.n(ref)}`);
      rows.push({
        name: `${c.name} (${rounds * ROUND} jobs)`,
        service: `${fmt.n(svc)} CPU-ms/job`,
        reference: `${fmt.n(ref)} CPU-ms/job (${c.reference})`,
        ratio: `${fmt.n(svc / ref, 2)}× the CPU`,
        target: 'measured',
        met: true,
        raw: { jobs: rounds * ROUND, serviceCpuMs: svc, referenceCpuMs: ref, split },
      });
    }
    return rows;
  } finally {
    server.close();
    server.closeAllConnections?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
