'use strict';
/**
 * 3. Uploads: a 1 GiB file, streamed from a generator, through the public intake
 * POST /v1/public/drops/{slug}/submissions vs a bare Node HTTP server piping the body to disk.
 * Both receive the same multipart body; the server's RSS is sampled every 100 ms meanwhile.
 */
const http = require('node:http');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Readable, pipeline } = require('node:stream');
const { cpuMs, freePort, log, sampleRss, startProcess, fmt, MiB } = require('../lib');

const CHUNK = randomBytes(MiB); // incompressible, sniffed as a document ("any" drop)
const ROUNDS = 3;

/** The multipart body: preamble, `size` bytes yielded chunk by chunk (never one buffer), epilogue. */
function multipart(size) {
  const boundary = `----dropline-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="senderName"\r\n\r\nBench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    for (let sent = 0; sent < size; sent += CHUNK.length) yield sent + CHUNK.length <= size ? CHUNK : CHUNK.subarray(0, size - sent);
    yield epilogue;
  }
  return { boundary, length: head.length + size + epilogue.length, body };
}

/**
 * POSTs the body; resolves once the answer is in with { seconds, tailSeconds, status, json }:
 * tailSeconds is the wait between the last byte sent and the answer (fsync, database).
 */
function upload(url, size) {
  const { boundary, length, body } = multipart(size);
  const since = (t) => Number(process.hrtime.bigint() - t) / 1e9;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let sentAt;
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const seconds = since(started);
          resolve({ seconds, tailSeconds: sentAt === undefined ? 0 : since(sentAt), status: res.statusCode, json: text ? JSON.parse(text) : undefined, length });
        });
      },
    );
    req.on('error', reject);
    pipeline(Readable.from(body()), req, (err) => (err ? reject(err) : (sentAt = process.hrtime.bigint())));
  });
}

async function measured(url, pid, size) {
  const rss = sampleRss(pid, 100);
  const cpuBefore = cpuMs(pid);
  const res = await upload(url, size);
  const mem = rss.stop();
  // CPU of the receiving process (user + system): steadier than MB/s on a shared machine.
  const cpuSeconds = (cpuMs(pid) - cpuBefore) / 1000;
  if (res.status !== 201) throw new Error(`upload to ${url} answered ${res.status}: ${JSON.stringify(res.json)}`);
  return { mbps: res.length / 1e6 / res.seconds, seconds: res.seconds, tailSeconds: res.tailSeconds, rssGrowth: mem.growth, cpuSeconds, json: res.json };
}

module.exports = async function uploads(ctx) {
  const size = Number(process.env.BENCH_UPLOAD_BYTES ?? (ctx.quick ? 128 * MiB : 1024 * MiB));
  const slug = `bench-upload-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'Upload bench', slug, allowedKinds: 'any', maxFileSizeMB: 2048 });

  const port = await freePort();
  const ref = await startProcess('ref-pipe-to-disk', process.execPath, [path.join(__dirname, '..', 'ref', 'pipe-to-disk.js')], {
    env: { PORT: String(port), DIR: ctx.tmpDir },
    readyUrl: `http://127.0.0.1:${port}/`,
  });
  try {
    const runs = { svc: [], ref: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      log(`uploads: round ${round}/${ROUNDS}, ${fmt.mib(size)} each`);
      runs.ref.push(await measured(`http://127.0.0.1:${port}/`, ref.pid, size));
      const svc = await measured(`${ctx.baseUrl}/v1/public/drops/${slug}/submissions`, ctx.app.pid, size);
      if (svc.json.submission.fileSize !== size) throw new Error(`stored ${svc.json.submission.fileSize} bytes, sent ${size}`);
      await ctx.api('DELETE', `/v1/drops/${slug}/submissions/${svc.json.submission.id}`);
      runs.svc.push(svc);
    }
    // Throughput: the best run of each side; RSS growth: the worst run.
    const best = {};
    for (const side of ['svc', 'ref']) {
      best[side] = {
        mbps: Math.max(...runs[side].map((r) => r.mbps)),
        rssGrowth: Math.max(...runs[side].map((r) => r.rssGrowth)),
        tail: Math.min(...runs[side].map((r) => r.tailSeconds)),
        cpu: Math.min(...runs[side].map((r) => r.cpuSeconds)),
      };
    }
    const ratio = best.svc.mbps / best.ref.mbps;
    const rssOk = best.svc.rssGrowth < 32 * MiB;
    return {
      name: `Uploads: ${size / MiB} MiB via public intake (best of ${ROUNDS})`,
      service: `${fmt.n(best.svc.mbps)} MB/s · RSS +${fmt.mib(best.svc.rssGrowth)} · answer ${fmt.n(best.svc.tail, 2)} s after the last byte · ${fmt.n(best.svc.cpu, 2)} CPU-s`,
      reference: `${fmt.n(best.ref.mbps)} MB/s · RSS +${fmt.mib(best.ref.rssGrowth)} · ${fmt.n(best.ref.tail, 2)} s · ${fmt.n(best.ref.cpu, 2)} CPU-s (node http → fs)`,
      ratio: `${fmt.pct(ratio)} of MB/s`,
      target: '≥ 90 %, RSS < +32 MiB',
      met: ratio >= 0.9 && rssOk,
      raw: { bytes: size, service: runs.svc.map(({ json, ...r }) => r), reference: runs.ref.map(({ json, ...r }) => r) },
    };
  } finally {
    await ref.stop();
  }
};
module.exports.measured = measured;
