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
const { log, sleep, fmt } = require('../lib');

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

/** User + system CPU of a process and of its children it waited for, in ms (/proc, 100 ticks a second). */
function cpuWithChildrenMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

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

async function runJob(api, body) {
  const accepted = await api('POST', '/v1/jobs', body, { 'idempotency-key': randomUUID() });
  for (;;) {
    const { job } = await api('GET', `/v1/jobs/${accepted.id}`);
    if (job.state === 'completed') return job;
    if (job.state === 'failed' || job.state === 'canceled') throw new Error(`job ${job.id} ${job.state}: ${JSON.stringify(job.error)}`);
    await sleep(50);
  }
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
      await runJob(ctx.api, body); // warm-up
      execFileSync(FFMPEG, tool.reference(input, out));
      let svcCpu = 0;
      let refCpu = 0;
      let runMs = 0;
      for (let i = 0; i < n; i++) {
        const before = cpuWithChildrenMs(ctx.app.pid);
        const job = await runJob(ctx.api, body);
        svcCpu += cpuWithChildrenMs(ctx.app.pid) - before;
        runMs += Date.parse(job.finishedAt) - Date.parse(job.startedAt);
        const refBefore = cpuWithChildrenMs('self');
        execFileSync(FFMPEG, tool.reference(input, out));
        refCpu += cpuWithChildrenMs('self') - refBefore;
      }
      log(`${name}: ${n} jobs, a job runs ${fmt.ms(runMs / n)} in the worker`);
      return {
        name: `${tool.label} (${n} jobs, 60 s 720p input)`,
        service: `${fmt.n(svcCpu / n)} CPU-ms/job · runs ${fmt.ms(runMs / n)} in the worker`,
        reference: `${fmt.n(refCpu / n)} CPU-ms/job (bare ffmpeg)`,
        ratio: `${fmt.n(svcCpu / refCpu, 2)}× the CPU`,
        target: 'report',
        met: true,
        raw: { n, svcCpu, refCpu, runMs },
      };
    } finally {
      server.close();
      server.closeAllConnections?.();
    }
  };
}

module.exports = { thumbnail: scenario('thumbnail'), storyboard: scenario('storyboard') };
