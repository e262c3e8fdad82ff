'use strict';
/**
 * 6. Download-all: 1 GiB of submissions (4 × 256 MiB) as one ZIP from
 * GET /v1/drops/{slug}/submissions/archive, against fetching the same files one by one through
 * their signed download URLs. RSS sampled meanwhile. Select with `--only=zip`.
 */
const { log, sampleRss, fmt, MiB } = require('../lib');
const { measured } = require('./uploads');

async function drain(url, headers = {}) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return bytes;
}

module.exports = async function zip(ctx) {
  const total = Number(process.env.BENCH_ZIP_BYTES ?? (ctx.quick ? 128 * MiB : 1024 * MiB));
  const each = total / 4;
  const slug = `bench-zip-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'zip bench', slug, allowedKinds: 'any', maxFileSizeMB: 2048 });
  log(`zip: storing 4 × ${fmt.mib(each)}`);
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push((await measured(`${ctx.baseUrl}/v1/public/drops/${slug}/submissions`, ctx.app.pid, each)).json.submission.id);

  log('zip: the archive');
  const rss = sampleRss(ctx.app.pid, 100);
  let started = process.hrtime.bigint();
  const zipped = await drain(`${ctx.baseUrl}/v1/drops/${slug}/submissions/archive`, { authorization: `Bearer ${ctx.token}` });
  const zipSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const zipRss = rss.stop().growth;

  log('zip: the same files through their signed URLs');
  const refRss = sampleRss(ctx.app.pid, 100);
  started = process.hrtime.bigint();
  let plain = 0;
  for (const id of ids) {
    const link = await ctx.api('GET', `/v1/drops/${slug}/submissions/${id}/download`);
    plain += await drain(link.url);
  }
  const refSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const refGrowth = refRss.stop().growth;

  const zipMbps = zipped / 1e6 / zipSeconds;
  const refMbps = plain / 1e6 / refSeconds;
  return {
    name: `Download-all: ${total / MiB} MiB of submissions as one ZIP`,
    service: `${fmt.n(zipMbps)} MB/s · RSS +${fmt.mib(zipRss)}`,
    reference: `${fmt.n(refMbps)} MB/s · RSS +${fmt.mib(refGrowth)} (the 4 files via signed URLs)`,
    ratio: `${fmt.pct(zipMbps / refMbps)} of MB/s`,
    target: '≥ 70 %, RSS < +64 MiB',
    met: zipMbps / refMbps >= 0.7 && zipRss < 64 * MiB,
    raw: { bytes: total, zipBytes: zipped, zip: { seconds: zipSeconds, rssGrowth: zipRss }, signedUrls: { seconds: refSeconds, rssGrowth: refGrowth } },
  };
};
