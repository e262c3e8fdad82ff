'use strict';
/**
 * 5. tus: a 1 GiB file sent to a drop with the tus protocol in 8 MiB PATCHes (the drop page's own
 * chunk size, src/drop-page/public/drop-page.js), against the same file in one multipart POST to
 * the public intake. Rounds alternate the two sides (POST, tus, POST, tus…) so the machine's load
 * hits both alike; the row gives medians. Besides MB/s and RSS, the service's CPU-ms per GiB from
 * /proc by thread group (main JS thread, libuv pool, V8 helpers): the figure that holds on a busy
 * machine. Select with `--only=tus`; BENCH_ROUNDS (default 3), BENCH_TUS_CHUNK_MIB (default 8).
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { log, sampleRss, fmt, MiB, machineCpuMs, threadCpuMs } = require('../lib');
const { measured } = require('./uploads');

const CHUNK = Number(process.env.BENCH_TUS_CHUNK_MIB ?? 8) * MiB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BLOCK = randomBytes(CHUNK); // incompressible, sniffed as a document ("any" drop)

function request(url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'tus-resumable': '1.0.0', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function tusUpload(collection, size) {
  const started = process.hrtime.bigint();
  const meta = `filename ${Buffer.from('big.bin').toString('base64')},senderName ${Buffer.from('Bench').toString('base64')}`;
  const created = await request(collection, 'POST', { 'upload-length': String(size), 'upload-metadata': meta });
  if (created.statusCode !== 201) throw new Error(`tus POST answered ${created.statusCode}`);
  const url = created.headers.location;
  let submissionId;
  for (let offset = 0; offset < size; offset += CHUNK) {
    const part = offset + CHUNK <= size ? BLOCK : BLOCK.subarray(0, size - offset);
    const res = await request(url, 'PATCH', { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': part.length }, part);
    if (res.statusCode !== 204) throw new Error(`tus PATCH at ${offset} answered ${res.statusCode}`);
    submissionId = res.headers['dropline-submission-id'] ?? submissionId;
  }
  if (!submissionId) throw new Error('the last PATCH carried no Dropline-Submission-Id');
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, submissionId };
}

/** Runs `fn` and adds the CPU-ms per GiB it cost: the service by thread group, and Postgres, Redis, this client. */
async function withCpu(pid, bytes, fn) {
  const m0 = machineCpuMs(pid);
  const t0 = threadCpuMs(pid);
  const result = await fn();
  const m1 = machineCpuMs(pid);
  const t1 = threadCpuMs(pid);
  const perGiB = (ms) => Math.round((ms * 1024 * MiB) / bytes);
  const threads = Object.fromEntries(Object.keys(t1).map((k) => [k, perGiB(t1[k] - (t0[k] ?? 0))]));
  return {
    ...result,
    cpuMsPerGiB: {
      service: perGiB(m1.service - m0.service),
      postgres: perGiB(m1.postgres - m0.postgres),
      redis: perGiB(m1.redis - m0.redis),
      client: perGiB(m1.bench - m0.bench),
      threads,
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

module.exports = async function tus(ctx) {
  const size = Number(process.env.BENCH_UPLOAD_BYTES ?? (ctx.quick ? 128 * MiB : 1024 * MiB));
  const slug = `bench-tus-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'tus bench', slug, allowedKinds: 'any', maxFileSizeMB: 2048 });

  const runs = { tus: [], post: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`tus: round ${round}/${ROUNDS}: ${fmt.mib(size)} as one multipart POST`);
    const post = await withCpu(ctx.app.pid, size, () => measured(`${ctx.baseUrl}/v1/public/drops/${slug}/submissions`, ctx.app.pid, size));
    await ctx.api('DELETE', `/v1/drops/${slug}/submissions/${post.json.submission.id}`);
    runs.post.push({ mbps: post.mbps, rssGrowth: post.rssGrowth, seconds: post.seconds, cpuMsPerGiB: post.cpuMsPerGiB });

    log(`tus: round ${round}/${ROUNDS}: ${fmt.mib(size)} in ${fmt.mib(CHUNK)} PATCHes`);
    const rss = sampleRss(ctx.app.pid, 100);
    const svc = await withCpu(ctx.app.pid, size, () => tusUpload(`${ctx.baseUrl}/v1/public/drops/${slug}/tus`, size));
    const rssGrowth = rss.stop().growth;
    await ctx.api('DELETE', `/v1/drops/${slug}/submissions/${svc.submissionId}`);
    runs.tus.push({ mbps: size / 1e6 / svc.seconds, rssGrowth, seconds: svc.seconds, cpuMsPerGiB: svc.cpuMsPerGiB });
    log(`tus: round ${round}: tus ${fmt.n(runs.tus.at(-1).mbps)} MB/s ${JSON.stringify(svc.cpuMsPerGiB)} · POST ${fmt.n(post.mbps)} MB/s ${JSON.stringify(post.cpuMsPerGiB)}`);
  }
  const med = (side, pick) => median(runs[side].map(pick));
  const ratio = median(runs.tus.map((r, i) => r.mbps / runs.post[i].mbps));
  const cpuRatio = median(runs.tus.map((r, i) => r.cpuMsPerGiB.service / runs.post[i].cpuMsPerGiB.service));
  const tusRss = Math.max(...runs.tus.map((r) => r.rssGrowth));
  return {
    name: `tus: ${size / MiB} MiB in ${CHUNK / MiB} MiB PATCHes vs one POST (median of ${ROUNDS}, alternated)`,
    service: `${fmt.n(med('tus', (r) => r.mbps))} MB/s · RSS +${fmt.mib(tusRss)} (worst) · ${fmt.n(med('tus', (r) => r.cpuMsPerGiB.service))} service CPU-ms/GiB`,
    reference: `${fmt.n(med('post', (r) => r.mbps))} MB/s · RSS +${fmt.mib(Math.max(...runs.post.map((r) => r.rssGrowth)))} · ${fmt.n(med('post', (r) => r.cpuMsPerGiB.service))} CPU-ms/GiB (single multipart POST)`,
    ratio: `${fmt.pct(ratio)} of MB/s · ${fmt.n(cpuRatio, 2)}× the CPU`,
    target: '≥ 70 %, RSS < +64 MiB',
    met: ratio >= 0.7 && tusRss < 64 * MiB,
    raw: { bytes: size, chunk: CHUNK, tus: runs.tus, post: runs.post },
  };
};
