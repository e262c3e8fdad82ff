'use strict';
/**
 * 6. Download-all: 1 GiB of submissions (4 × 256 MiB) as one ZIP from
 * GET /v1/drops/{slug}/submissions/archive, against fetching the same files one by one through
 * their signed download URLs. Rounds alternate the sides; the row gives medians, with the service's
 * CPU-ms per GiB from /proc by thread group. RSS sampled meanwhile. Select with `--only=zip`;
 * BENCH_ROUNDS (default 3).
 */
const { log, sampleRss, fmt, MiB, machineCpuMs, threadCpuMs } = require('../lib');
const { measured } = require('./uploads');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function drain(url, headers = {}) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return bytes;
}

/** `fn`'s bytes, seconds, RSS growth and the CPU-ms per GiB it cost (service by thread group, Postgres, this client). */
async function side(pid, fn) {
  const rss = sampleRss(pid, 100);
  const m0 = machineCpuMs(pid);
  const t0 = threadCpuMs(pid);
  const started = process.hrtime.bigint();
  const bytes = await fn();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const m1 = machineCpuMs(pid);
  const t1 = threadCpuMs(pid);
  const perGiB = (ms) => Math.round((ms * 1024 * MiB) / bytes);
  const threads = Object.fromEntries(Object.keys(t1).map((k) => [k, perGiB(t1[k] - (t0[k] ?? 0))]));
  return {
    bytes,
    seconds,
    mbps: bytes / 1e6 / seconds,
    rssGrowth: rss.stop().growth,
    cpuMsPerGiB: { service: perGiB(m1.service - m0.service), postgres: perGiB(m1.postgres - m0.postgres), client: perGiB(m1.bench - m0.bench), threads },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

module.exports = async function zip(ctx) {
  const total = Number(process.env.BENCH_ZIP_BYTES ?? (ctx.quick ? 128 * MiB : 1024 * MiB));
  const each = total / 4;
  const slug = `bench-zip-${Date.now().toString(36)}`;
  await ctx.api('POST', '/v1/drops', { name: 'zip bench', slug, allowedKinds: 'any', maxFileSizeMB: 2048 });
  log(`zip: storing 4 × ${fmt.mib(each)}`);
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push((await measured(`${ctx.baseUrl}/v1/public/drops/${slug}/submissions`, ctx.app.pid, each)).json.submission.id);

  const runs = { zip: [], signed: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`zip: round ${round}/${ROUNDS}: the archive`);
    runs.zip.push(await side(ctx.app.pid, () => drain(`${ctx.baseUrl}/v1/drops/${slug}/submissions/archive`, { authorization: `Bearer ${ctx.token}` })));
    log(`zip: round ${round}/${ROUNDS}: the same files through their signed URLs`);
    runs.signed.push(
      await side(ctx.app.pid, async () => {
        let plain = 0;
        for (const id of ids) {
          const link = await ctx.api('GET', `/v1/drops/${slug}/submissions/${id}/download`);
          plain += await drain(link.url);
        }
        return plain;
      }),
    );
    log(
      `zip: round ${round}: zip ${fmt.n(runs.zip.at(-1).mbps)} MB/s ${JSON.stringify(runs.zip.at(-1).cpuMsPerGiB)} · signed ${fmt.n(runs.signed.at(-1).mbps)} MB/s ${JSON.stringify(runs.signed.at(-1).cpuMsPerGiB)}`,
    );
  }
  const med = (s, pick) => median(runs[s].map(pick));
  const ratio = median(runs.zip.map((r, i) => r.mbps / runs.signed[i].mbps));
  const zipRss = Math.max(...runs.zip.map((r) => r.rssGrowth));
  return {
    name: `Download-all: ${total / MiB} MiB of submissions as one ZIP (median of ${ROUNDS}, alternated)`,
    service: `${fmt.n(med('zip', (r) => r.mbps))} MB/s · RSS +${fmt.mib(zipRss)} (worst) · ${fmt.n(med('zip', (r) => r.cpuMsPerGiB.service))} service CPU-ms/GiB`,
    reference: `${fmt.n(med('signed', (r) => r.mbps))} MB/s · RSS +${fmt.mib(Math.max(...runs.signed.map((r) => r.rssGrowth)))} · ${fmt.n(med('signed', (r) => r.cpuMsPerGiB.service))} CPU-ms/GiB (the 4 files via signed URLs)`,
    ratio: `${fmt.pct(ratio)} of MB/s`,
    target: '≥ 85 %, RSS < +64 MiB',
    met: ratio >= 0.85 && zipRss < 64 * MiB,
    raw: { bytes: total, zip: runs.zip, signedUrls: runs.signed },
  };
};
