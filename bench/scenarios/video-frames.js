'use strict';
/**
 * video-thumbnail and video-storyboard (issue 19): N jobs of each, one at a time (the video queue
 * runs one job per worker), on a 60 s 1280×720 H.264 clip fetched from loopback, vs the bare
 * ffmpeg command that makes the same image from the same file. Compared in CPU-ms per job: the
 * service process with its waited-for children (ffprobe, ffmpeg; /proc cutime) against the
 * reference ffmpeg's. BENCH_VIDEO_JOBS=<n> jobs per tool (default 6, quick 3).
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { log, fmt, threadCpuMs } = require('../lib');

const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';
const TOOLS = {
  thumbnail: {
    body: { tool: 'video-thumbnail', options: { at: 30, width: 320, format: 'jpeg' } },
    reference: (input, out) => ['-v', 'error', '-y', '-ss', '30', '-i', input, '-frames:v', '1', '-vf', 'scale=320:-2', '-q:v', '3', out],
    label: 'video-thumbnail: a frame at 30 s, 320 w JPEG',
  },
  storyboard: {
    body: { tool: 'video-storyboard', options: { interval: 5, columns: 4, width: 160, format: 'jpeg' } },
    reference: (input, out) => ['-v', 'error', '-y', '-i', input, '-vf', 'fps=1/5,scale=160:90,tile=4x3', '-frames:v', '1', '-q:v', '3', out],
    label: 'video-storyboard: 12 tiles of 160×90 + WebVTT',
  },
};

/** CPU-ms of a process: its own (user + system) and that of the children it waited for (/proc, 100 ticks a second). */
function cpuSplitMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { own: (Number(f[11]) + Number(f[12])) * 10, children: (Number(f[13]) + Number(f[14])) * 10 };
}
const cpuWithChildrenMs = (pid) => {
  const { own, children } = cpuSplitMs(pid);
  return own + children;
};

async function fixture(ctx) {
  const file = path.join(ctx.tmpDir, 'clip-60s-720p.mp4');
  if (!fs.existsSync(file)) {
    execFileSync(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=60', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=60'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file],
    ]);
  }
  return file;
}

function serve(file, port) {
  const body = fs.readFileSync(file);
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length }).end(body));
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/**
 * One job, POSTed with `Prefer: wait`: the answer is the finished job (one request, as a client
 * that wants the result does it), so the figure is the job's, not a polling rate's (a GET every 50 ms
 * cost the service more CPU the slower the busy machine ran the job).
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
  if (job?.state !== 'completed') throw new Error(`job ${job?.id} answered ${status} ${job?.state}: ${JSON.stringify(job?.error)}`);
  return job;
}

function scenario(name) {
  const tool = TOOLS[name];
  return async function videoFrames(ctx) {
    const n = Number(process.env.BENCH_VIDEO_JOBS ?? (ctx.quick ? 3 : 6));
    const input = await fixture(ctx);
    const server = await serve(input, ctx.fixturePort);
    try {
      const body = { ...tool.body, input: { url: `http://127.0.0.1:${ctx.fixturePort}/clip.mp4` } };
      const out = path.join(ctx.tmpDir, `ref-${name}.jpg`);
      await runJob(ctx, body); // warm-up
      execFileSync(FFMPEG, tool.reference(input, out));
      let svcCpu = 0;
      let refCpu = 0;
      let runMs = 0;
      // Where the service's CPU goes: its own threads (main: JavaScript; libuv: fs, sharp's calls; vips; v8) and its children (ffprobe, ffmpeg).
      const split = { children: 0 };
      for (let i = 0; i < n; i++) {
        const before = cpuSplitMs(ctx.app.pid);
        const threadsBefore = threadCpuMs(ctx.app.pid);
        const job = await runJob(ctx, body);
        const after = cpuSplitMs(ctx.app.pid);
        const threadsAfter = threadCpuMs(ctx.app.pid);
        svcCpu += after.own + after.children - before.own - before.children;
        split.children += after.children - before.children;
        for (const [group, ms] of Object.entries(threadsAfter)) split[group] = (split[group] ?? 0) + ms - (threadsBefore[group] ?? 0);
        runMs += Date.parse(job.finishedAt) - Date.parse(job.startedAt);
        const refBefore = cpuWithChildrenMs('self');
        execFileSync(FFMPEG, tool.reference(input, out));
        refCpu += cpuWithChildrenMs('self') - refBefore;
      }
      const perJob = Object.entries(split)
        .map(([group, ms]) => `${group} ${fmt.n(ms / n)}`)
        .join(', ');
      log(`${name}: service ${fmt.n(svcCpu / n)} CPU-ms/job (${perJob}), bare ffmpeg ${fmt.n(refCpu / n)}`);
      log(`${name}: ${n} jobs, a job runs ${fmt.ms(runMs / n)} in the worker`);
      return {
        name: `${tool.label} (${n} jobs, 60 s 720p input)`,
        service: `${fmt.n(svcCpu / n)} CPU-ms/job · runs ${fmt.ms(runMs / n)} in the worker`,
        reference: `${fmt.n(refCpu / n)} CPU-ms/job (bare ffmpeg)`,
        ratio: `${fmt.n(svcCpu / refCpu, 2)}× the CPU`,
        target: 'report',
        met: true,
        raw: { n, svcCpu, refCpu, runMs, split: Object.fromEntries(Object.entries(split).map(([g, ms]) => [g, ms / n])) },
      };
    } finally {
      server.close();
      server.closeAllConnections?.();
    }
  };
}

module.exports = { thumbnail: scenario('thumbnail'), storyboard: scenario('storyboard') };
