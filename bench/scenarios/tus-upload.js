'use strict';
/**
 * 5. tus: a 1 GiB file sent to a drop with the tus protocol in 8 MiB PATCHes (what the drop page
 * does), against the same file in one multipart POST to the public intake. RSS sampled meanwhile.
 * Select with `--only=tus`.
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { log, sampleRss, fmt, MiB } = require('../lib');
const { measured } = require('./uploads');

const CHUNK = 8 * MiB;
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

module.exports = async function tus(ctx) {
  const size = Number(process.env.BENCH_UPLOAD_BYTES ?? (ctx.quick ? 128 * MiB : 1024 * MiB));
  const slug = `bench-tus-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'tus bench', slug, allowedKinds: 'any', maxFileSizeMB: 2048 });

  log(`tus: ${fmt.mib(size)} in ${fmt.mib(CHUNK)} PATCHes`);
  const rss = sampleRss(ctx.app.pid, 100);
  const svc = await tusUpload(`${ctx.baseUrl}/v1/public/drops/${slug}/tus`, size);
  const svcRss = rss.stop().growth;
  await ctx.api('DELETE', `/v1/drops/${slug}/submissions/${svc.submissionId}`);
  const svcMbps = size / 1e6 / svc.seconds;

  log(`tus: the same ${fmt.mib(size)} as one multipart POST`);
  const post = await measured(`${ctx.baseUrl}/v1/public/drops/${slug}/submissions`, ctx.app.pid, size);
  await ctx.api('DELETE', `/v1/drops/${slug}/submissions/${post.json.submission.id}`);

  const ratio = svcMbps / post.mbps;
  return {
    name: `tus: ${size / MiB} MiB in ${CHUNK / MiB} MiB PATCHes vs one POST`,
    service: `${fmt.n(svcMbps)} MB/s · RSS +${fmt.mib(svcRss)}`,
    reference: `${fmt.n(post.mbps)} MB/s · RSS +${fmt.mib(post.rssGrowth)} (single multipart POST)`,
    ratio: `${fmt.pct(ratio)} of MB/s`,
    target: '≥ 70 %, RSS < +64 MiB',
    met: ratio >= 0.7 && svcRss < 64 * MiB,
    raw: { bytes: size, chunk: CHUNK, tus: { seconds: svc.seconds, rssGrowth: svcRss }, post: { seconds: post.seconds, rssGrowth: post.rssGrowth } },
  };
};
