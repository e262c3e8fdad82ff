'use strict';
/**
 * Where the JavaScript thread's CPU goes, by stage, from a V8 CPU profile of the service
 * (`npm run bench -- --only=jobs --profile`): each busy sample goes to the first stage whose code is
 * on its stack (the worker's run, the API's request handling, …); what runs in a socket or timer
 * callback with none of our frames below it goes to the client library it is in (Postgres, Redis).
 * Prints CPU-ms per job when given the job count.
 *   node bench/stage-profile.js <file.cpuprofile> [--last=<seconds>] [--jobs=<n>]
 */
const fs = require('node:fs');

const opts = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
);
const [file] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** First match wins, tested against every frame of the stack (innermost first). */
const STAGES = [
  ['worker: input fetch (undici, SSRF guard, file write)', /\/src\/http-fetch\//],
  ['worker: store output (link, fsync)', /\/src\/storage\/local-storage\.driver/],
  ['worker: tool (probe, sharp calls)', /\/src\/(tools|media)\/|tool-runner\.ts/],
  ['worker: job state writes, settle, events', /\/src\/jobs\/(job-runner|job-events|media\.processors|use-cases\/(run-job|settle-job))\.ts/],
  [
    'API: requests (Fastify, Nest, guards, jobs service)',
    /node_modules\/(fastify|@fastify|find-my-way|@nestjs\/core|@nestjs\/platform-fastify|pino-http|middie)\/|\/src\/(jobs\/jobs\.|jobs\/idempotency|jobs\/job-admission|jobs\/job-queue|auth|contract|common)\//,
  ],
  ['Postgres client (pg, TypeORM), both sides', /node_modules\/(pg|pg-protocol|pg-pool|typeorm|postgres-)/],
  ['Redis client (BullMQ, ioredis), both sides', /node_modules\/(bullmq|ioredis|redis-parser|msgpackr)\//],
  ['metrics, logging', /node_modules\/(prom-client|pino|nestjs-pino)\/|\/src\/(metrics|logging)\//],
];

const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
const fromUs = opts.last ? total - Number(opts.last) * 1e6 : 0;
const stages = new Map();
let at = 0;
let busy = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i] ?? 0;
  at += us;
  if (at < fromUs) continue;
  const leaf = byId.get(profile.samples[i]).callFrame.functionName;
  if (leaf === '(idle)') {
    idle += us;
    continue;
  }
  busy += us;
  let stage = leaf === '(garbage collector)' ? 'garbage collection' : undefined;
  for (let id = profile.samples[i]; !stage && id !== undefined; id = parent.get(id)) {
    const url = byId.get(id).callFrame.url;
    stage = STAGES.find(([, re]) => re.test(url))?.[0];
  }
  // No frame of ours: a write's syscall (a loopback socket's TCP work, a file write submitted through io_uring) runs in the calling thread.
  stage ??= /^(writev|writeBuffers?|write\w*String)$/.test(leaf) ? 'other: writes (sockets, file WriteStreams)' : 'other (Node internals: socket reads, fs callbacks, timers)';
  stages.set(stage, (stages.get(stage) ?? 0) + us);
}
const jobs = Number(opts.jobs ?? 0);
console.log(`${file}: ${((busy + idle) / 1e6).toFixed(1)} s sampled, busy ${((100 * busy) / (busy + idle)).toFixed(0)} %`);
for (const [name, us] of [...stages].sort((a, b) => b[1] - a[1])) {
  console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${jobs ? `${(us / 1000 / jobs).toFixed(1).padStart(5)} CPU-ms/job  ` : ''}${name}`);
}
