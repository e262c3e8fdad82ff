'use strict';
/* global FormData, Blob -- Node's own (fetch's multipart body) */
/**
 * Wrong drop passwords vs another sender's uploads. One account owns 40 protected drops; attackers
 * knock on them with wrong passwords from several loopback addresses (127.0.<round>.x), each paced
 * at 10 requests a second (the production per-address request limit; the bench service runs with
 * PUBLIC_RATE_LIMIT=1000), while a sender on 127.0.0.1 posts a 64 KiB file to an open drop every
 * 100 ms. Each wrong password that gets past the limits costs one scrypt (32 MiB) on the API
 * process; the upload's fs work shares libuv's thread pool with it. Rounds alternate: no attack
 * (the baseline), 3 new addresses (the first 12 s of the security review's load), 32 addresses (past the per-address
 * budget: the bounded scrypt queue is what holds then), and the same 32 addresses at the same pace
 * on an open drop (no scrypt: what the request rate alone costs); then a minute of the same 3
 * addresses (the review's load held: they spend their 20 wrong passwords each, then get 429s).
 * Targets: the upload's p50 over that minute within 2× the baseline's; under 32 addresses within
 * 2× the open-drop control's; no upload fails. The attackers run on a worker thread, so their
 * answers do not delay the sender's timing loop.
 */
const http = require('node:http');
const { isMainThread, parentPort, Worker, workerData } = require('node:worker_threads');
const { randomBytes } = require('node:crypto');
const { fmt, log, sleep } = require('../lib');

const DROPS = 40;
const ROUNDS = 2;
const PACE_MS = 100; // 10 requests a second per attacking address
const UPLOAD_EVERY_MS = 100;
const FILE = randomBytes(64 * 1024);

function quantile(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

function summary(latencies) {
  const s = [...latencies].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1] ?? NaN };
}

/** A GET with a wrong Drop-Password from `agent`'s address; resolves to the answer's status and error message. */
function knock(baseUrl, agent, slug, password) {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}/v1/public/drops/${slug}`, { agent, headers: { 'drop-password': password } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, message: text.includes('"message"') ? JSON.parse(text).error?.message : undefined }));
    });
    req.on('error', () => resolve({ status: 0 }));
  });
}

/** Each address knocks every PACE_MS (one request in flight at most) until `stop.done`; counts the answers. */
async function attack(baseUrl, slugs, addresses, stop) {
  const counts = { open: 0, wrong: 0, dropLimit: 0, addressLimit: 0, queueFull: 0, other: 0 };
  await Promise.all(
    addresses.map(async (localAddress, a) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress });
      try {
        for (let i = 0; !stop.done; i++) {
          const started = Date.now();
          const { status, message = '' } = await knock(baseUrl, agent, slugs[(a + i) % slugs.length], `wrong guess ${a}-${i}`);
          if (status === 200) counts.open++;
          else if (status === 403) counts.wrong++;
          else if (status === 429 && message.includes('being checked')) counts.queueFull++;
          else if (status === 429 && message.includes('for this drop')) counts.dropLimit++;
          else if (status === 429) counts.addressLimit++;
          else counts.other++;
          await sleep(Math.max(0, PACE_MS - (Date.now() - started)));
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return counts;
}

/** The attack on a worker thread: resolves to its counts once `stop()` was called and its requests ended. */
function attackOnWorker(baseUrl, slugs, addresses) {
  const worker = new Worker(__filename, { workerData: { baseUrl, slugs, addresses } });
  const counted = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { stop: () => worker.postMessage('stop'), counted: counted.finally(() => worker.terminate()) };
}

if (!isMainThread && workerData?.addresses) {
  const stop = { done: false };
  parentPort.once('message', () => (stop.done = true));
  attack(workerData.baseUrl, workerData.slugs, workerData.addresses, stop).then((counts) => parentPort.postMessage(counts));
}

/**
 * Posts FILE to the open drop every UPLOAD_EVERY_MS for `seconds`; the latency of each. An upload
 * that fails (no 201, or the connection broke) counts with the time it took, and is listed in `failed`.
 */
async function uploads(baseUrl, slug, seconds, failed = []) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const form = new FormData();
    form.append('file', new Blob([FILE]), 'sender.bin');
    const started = process.hrtime.bigint();
    const outcome = await fetch(`${baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form }).then(
      async (res) => (await res.arrayBuffer(), res.status === 201 ? undefined : `answered ${res.status}`),
      (err) => `${err.message}: ${err.cause?.code ?? err.cause?.message ?? ''}`,
    );
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (outcome) failed.push(`${outcome} after ${Math.round(ms)} ms`);
    latencies.push(ms);
    await sleep(Math.max(0, UPLOAD_EVERY_MS - ms));
  }
  return latencies;
}

module.exports = async function dropPasswords(ctx) {
  const stamp = Date.now().toString(36);
  const open = `bench-sender-${stamp}`;
  await ctx.api('POST', '/v1/drops', { name: 'Sender', slug: open, allowedKinds: 'any' });
  const slugs = [];
  for (let i = 0; i < DROPS; i++) {
    const slug = `bench-locked-${stamp}-${i}`;
    await ctx.api('POST', '/v1/drops', { name: `Locked ${i}`, slug, password: `the real password ${i}` });
    slugs.push(slug);
  }
  const seconds = ctx.seconds(12);
  const loads = { base: [], three: [], many: [], control: [], minute: [] };
  const failed = { base: [], three: [], many: [], control: [], minute: [] };
  const knocks = { three: [], many: [], control: [], minute: [] };
  log(`drop-passwords: warm-up, then ${ROUNDS} rounds of ${seconds} s × (no attack, 3 addresses, 32 addresses, 32 on an open drop)`);
  await uploads(ctx.baseUrl, open, 2);
  for (let round = 1; round <= ROUNDS; round++) {
    loads.base.push(...(await uploads(ctx.baseUrl, open, seconds, failed.base)));
    for (const [side, count, third] of [
      ['three', 3, 0],
      ['many', 32, 1],
      ['control', 32, 2],
    ]) {
      // Fresh addresses every round: their per-address budgets start full, as a new attacker's would.
      const addresses = Array.from({ length: count }, (_, i) => `127.0.${round * 4 + third}.${i + 2}`);
      const attacker = attackOnWorker(ctx.baseUrl, side === 'control' ? [open] : slugs, addresses);
      try {
        loads[side].push(...(await uploads(ctx.baseUrl, open, seconds, failed[side])));
      } finally {
        attacker.stop();
      }
      knocks[side].push(await attacker.counted);
      log(`drop-passwords round ${round}, ${side}: ${JSON.stringify(knocks[side].at(-1))}; uploads failed so far: ${failed[side].length} ${failed[side].slice(0, 3).join('; ')}`);
    }
  }
  // The same 3 addresses for a whole minute: their 20 wrong passwords each are spent early, then 429s.
  const minuteAttack = attackOnWorker(ctx.baseUrl, slugs, ['127.0.99.2', '127.0.99.3', '127.0.99.4']);
  try {
    loads.minute.push(...(await uploads(ctx.baseUrl, open, ctx.seconds(60), failed.minute)));
  } finally {
    minuteAttack.stop();
  }
  knocks.minute.push(await minuteAttack.counted);
  log(`drop-passwords, a minute of 3 addresses: ${JSON.stringify(knocks.minute[0])}; uploads failed: ${failed.minute.length}`);
  loads.base.push(...(await uploads(ctx.baseUrl, open, seconds, failed.base)));
  const base = summary(loads.base);
  const control = summary(loads.control);
  const sum = (list) => list.reduce((a, c) => Object.fromEntries(Object.keys(c).map((k) => [k, (a[k] ?? 0) + c[k]])), {});
  const line = (s, side) =>
    `p50 ${fmt.ms(s.p50)} · p95 ${fmt.ms(s.p95)} · max ${fmt.ms(s.max)} (${s.n} uploads${failed[side].length ? `, **${failed[side].length} failed**` : ''})`;
  const knocked = (k) => `${k.wrong} scrypt (403); 429: ${k.addressLimit} address limit · ${k.dropLimit} drop limit · ${k.queueFull} scrypt queue full`;
  const three = summary(loads.three);
  const minute = summary(loads.minute);
  const many = summary(loads.many);
  return [
    {
      name: 'Drop passwords: 64 KiB uploads (one every 100 ms) for a minute while the same 3 addresses send wrong passwords to 40 drops (10 req/s each)',
      service: `${line(minute, 'minute')}; the knocks: ${knocked(sum(knocks.minute))}`,
      reference: `${line(base, 'base')} without the attack`,
      ratio: `${fmt.n(minute.p50 / base.p50, 2)}× the p50`,
      target: '≤ 2×',
      met: minute.p50 / base.p50 <= 2 && failed.minute.length === 0,
      raw: { base, under: minute, knocks: knocks.minute, failed: failed.minute },
    },
    {
      name: 'Drop passwords: the same uploads in the first 12 s of 3 new addresses (their budgets full: the burst)',
      service: `${line(three, 'three')}; the knocks: ${knocked(sum(knocks.three))}`,
      reference: `${line(base, 'base')} without the attack`,
      ratio: `${fmt.n(three.p50 / base.p50, 2)}× the p50`,
      target: 'report',
      met: failed.three.length === 0,
      raw: { base, under: three, knocks: knocks.three, failed: failed.three },
    },
    {
      name: 'Drop passwords: the same uploads while 32 addresses send wrong passwords (10 req/s each)',
      service: `${line(many, 'many')}; the knocks: ${knocked(sum(knocks.many))}`,
      reference: `${line(control, 'control')} while the 32 send the same requests to an open drop (no scrypt; ${sum(knocks.control).open} answered); ${line(base, 'base')} without either`,
      ratio: `${fmt.n(many.p50 / control.p50, 2)}× the open-drop p50 (${fmt.n(many.p50 / base.p50, 2)}× the quiet one)`,
      target: '≤ 2× the open-drop p50',
      met: many.p50 / control.p50 <= 2 && failed.many.length === 0,
      raw: { base, control, under: many, knocks: knocks.many, controlKnocks: knocks.control, failed: failed.many },
    },
  ];
};
