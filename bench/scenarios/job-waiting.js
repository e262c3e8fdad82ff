'use strict';
/**
 * Issue 20 item 3, `Prefer: wait`:
 *  - `wait`: per-job latency of a small image job (64×48 PNG → 32 px), POST to the completed job
 *    with its download URL in hand, one job at a time: `Prefer: wait=30` on the POST vs the POST
 *    then a GET every 500 ms. Medians over N jobs each, alternated.
 *  - `waiters`: 1,000 requests waiting at once (`GET /v1/jobs/{id}` with `Prefer: wait=60` on
 *    jobs whose input the fixture server holds): the service's RSS and its CPU time at rest
 *    (over 10 s) with them vs without, then how long the 1,000 answers take once the jobs end.
 */
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const sharp = require('sharp');
const { cpuMs, freePort, fmt, log, MiB, rssBytes, sleep } = require('../lib');

const WAITERS = 1000;
const HELD_JOBS = 10;
const REST_S = 10;

/** A fixture server: /image.png at once, /held-*.png only once `releaseAll()` was called. */
async function fixtureServer() {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const held = [];
  let released = false;
  const send = (res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/held-') && !released) held.push(res);
    else send(res);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    heldCount: () => held.length,
    releaseAll() {
      released = true;
      for (const res of held.splice(0)) send(res);
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The service's `dropline_job_waiters`. */
async function waiterGauge(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^dropline_job_waiters (\d+)/m.exec(text)?.[1] ?? NaN);
}

async function until(condition, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function latency(ctx) {
  const fixtures = await fixtureServer();
  const jobs = ctx.quick ? 5 : 20;
  const body = { tool: 'image-resize', input: { url: `${fixtures.origin}/image.png` }, options: { width: 32 } };
  const completed = (job) => {
    if (job.state !== 'completed' || !job.result?.downloadUrl) throw new Error(`job ${job.id} ended ${job.state}`);
  };
  const withWait = async () => {
    const started = performance.now();
    const res = await fetch(`${ctx.baseUrl}/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', prefer: 'wait=30' },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status !== 200) throw new Error(`POST with Prefer: wait answered ${res.status}: ${JSON.stringify(answer)}`);
    completed(answer.job);
    return { ms: performance.now() - started, requests: 1 };
  };
  const polling = async () => {
    const started = performance.now();
    const { id } = await ctx.api('POST', '/v1/jobs', body);
    for (let requests = 2; ; requests++) {
      await sleep(500);
      const { job } = await ctx.api('GET', `/v1/jobs/${id}`);
      if (job.state === 'queued' || job.state === 'running') continue;
      completed(job);
      return { ms: performance.now() - started, requests };
    }
  };
  try {
    log(`wait: ${jobs} jobs with Prefer: wait=30 and ${jobs} polled every 500 ms, one at a time, alternated`);
    await withWait(); // warm-up: the listener connects on the first wait
    await polling();
    const runs = { wait: [], poll: [] };
    for (let i = 0; i < jobs; i++) {
      runs.wait.push(await withWait());
      runs.poll.push(await polling());
    }
    const w = median(runs.wait.map((r) => r.ms));
    const p = median(runs.poll.map((r) => r.ms));
    const requests = (rs) => rs.reduce((a, r) => a + r.requests, 0) / rs.length;
    return {
      name: 'Issue 20: small image job, POST to completed output (median, one at a time)',
      service: `${fmt.ms(w)} with \`Prefer: wait=30\` (${fmt.n(requests(runs.wait), 1)} request/job)`,
      reference: `${fmt.ms(p)} polling every 500 ms (${fmt.n(requests(runs.poll), 1)} requests/job)`,
      ratio: `${fmt.pct(w / p)} of the polled latency`,
      target: 'below polling',
      met: w < p,
      raw: runs,
    };
  } finally {
    fixtures.close();
  }
}

/**
 * Issue 20 item 1: a three-step image recipe (webp ← PNG, a 32 px resize of the webp, a 16 px
 * thumbnail of the PNG) as one pipeline job with `Prefer: wait`, vs the same three as single jobs
 * a client chains itself (each with `Prefer: wait`, the resize fed the webp's download URL).
 * Median per recipe, alternated, one at a time.
 */
async function pipeline(ctx) {
  const fixtures = await fixtureServer();
  const recipes = ctx.quick ? 5 : 20;
  const input = { url: `${fixtures.origin}/image.png` };
  const post = async (body) => {
    const res = await fetch(`${ctx.baseUrl}/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', prefer: 'wait=30' },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status !== 200 || answer.job.state !== 'completed') throw new Error(`POST answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer.job;
  };
  const asPipeline = async () => {
    const started = performance.now();
    const job = await post({
      input,
      steps: {
        webp: { tool: 'image-convert', options: { format: 'webp' } },
        small: { tool: 'image-resize', input: 'webp', options: { width: 32 } },
        thumb: { tool: 'image-thumbnail', options: { width: 16 } },
      },
    });
    if (Object.keys(job.result.outputs).length !== 3) throw new Error(`pipeline ${job.id}: ${Object.keys(job.result.outputs)}`);
    return performance.now() - started;
  };
  const chained = async () => {
    const started = performance.now();
    const [webp] = await Promise.all([post({ tool: 'image-convert', input, options: { format: 'webp' } }), post({ tool: 'image-thumbnail', input, options: { width: 16 } })]);
    await post({ tool: 'image-resize', input: { url: webp.result.downloadUrl }, options: { width: 32 } });
    return performance.now() - started;
  };
  try {
    log(`pipeline: ${recipes} three-step recipes as one pipeline job and as three chained jobs, alternated`);
    await asPipeline();
    await chained();
    const runs = { pipeline: [], chained: [] };
    for (let i = 0; i < recipes; i++) {
      runs.pipeline.push(await asPipeline());
      runs.chained.push(await chained());
    }
    const p = median(runs.pipeline);
    const c = median(runs.chained);
    return {
      name: 'Issue 20: three-step image recipe, POST to every output (median, one at a time)',
      service: `${fmt.ms(p)} as one pipeline job (\`Prefer: wait=30\`, 1 request)`,
      reference: `${fmt.ms(c)} as three jobs the client chains (3 requests, two in parallel)`,
      ratio: `${fmt.pct(p / c)} of the chained latency`,
      target: 'not slower than chaining',
      met: p <= c * 1.1,
      raw: runs,
    };
  } finally {
    fixtures.close();
  }
}

async function waiters(ctx) {
  const fixtures = await fixtureServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const open = [];
  try {
    const ids = [];
    for (let i = 0; i < HELD_JOBS; i++) {
      const { id } = await ctx.api('POST', '/v1/jobs', { tool: 'image-resize', input: { url: `${fixtures.origin}/held-${i}.png` }, options: { width: 32 } });
      ids.push(id);
    }
    await until(() => fixtures.heldCount() > 0, 'the worker to fetch a held input');
    // A first wait connects the listener; then the process at rest, without waiters.
    await ctx.api('GET', `/v1/jobs/${ids[0]}`, undefined, { prefer: 'wait=1' });
    await sleep(2000);
    const rssBefore = rssBytes(ctx.app.pid);
    let cpu = cpuMs(ctx.app.pid);
    await sleep(REST_S * 1000);
    const restCpuBefore = cpuMs(ctx.app.pid) - cpu;

    log(`waiters: ${WAITERS} GETs with Prefer: wait=60 on ${HELD_JOBS} held jobs`);
    const opened = performance.now();
    for (let i = 0; i < WAITERS; i++) {
      const id = ids[i % ids.length];
      open.push(
        new Promise((resolve, reject) => {
          const req = http.get(`${ctx.baseUrl}/v1/jobs/${id}`, { agent, headers: { authorization: `Bearer ${ctx.token}`, prefer: 'wait=60' } }, (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode, at: performance.now(), state: JSON.parse(text).job?.state }));
          });
          req.on('error', reject);
        }),
      );
    }
    await until(async () => (await waiterGauge(ctx.baseUrl)) === WAITERS, `${WAITERS} waiters`);
    const allWaitingMs = performance.now() - opened;
    await sleep(2000);
    const rssWith = rssBytes(ctx.app.pid);
    cpu = cpuMs(ctx.app.pid);
    await sleep(REST_S * 1000);
    const restCpuWith = cpuMs(ctx.app.pid) - cpu;

    const released = performance.now();
    fixtures.releaseAll();
    const answers = await Promise.all(open);
    const lastAnswerMs = Math.max(...answers.map((a) => a.at)) - released;
    const bad = answers.filter((a) => a.status !== 200 || a.state !== 'completed');
    if (bad.length) throw new Error(`${bad.length} waiters answered otherwise than 200 completed: ${JSON.stringify(bad[0])}`);
    await until(async () => (await waiterGauge(ctx.baseUrl)) === 0, 'the waiters to go');
    const growth = rssWith - rssBefore;
    return {
      name: `Issue 20: ${fmt.n(WAITERS)} concurrent \`Prefer: wait\` requests on one process`,
      service: `RSS +${fmt.mib(growth)} (${fmt.mib(rssBefore)} → ${fmt.mib(rssWith)}); CPU at rest ${fmt.n(restCpuWith)} ms per ${REST_S} s; all waiting after ${fmt.ms(allWaitingMs)}; ${fmt.n(WAITERS)} answers ${fmt.ms(lastAnswerMs)} after the inputs were released (${HELD_JOBS} jobs run)`,
      reference: `without waiters: CPU at rest ${fmt.n(restCpuBefore)} ms per ${REST_S} s`,
      ratio: `+${fmt.n(growth / WAITERS / 1024, 1)} KiB per waiter`,
      target: 'RSS ≤ +50 MiB, CPU at rest ≤ +100 ms per 10 s',
      met: growth <= 50 * MiB && restCpuWith - restCpuBefore <= 100,
      raw: { rssBefore, rssWith, restCpuBefore, restCpuWith, allWaitingMs, lastAnswerMs },
    };
  } finally {
    fixtures.releaseAll();
    agent.destroy();
    await fixtures.close();
  }
}

module.exports = { latency, waiters, pipeline };
