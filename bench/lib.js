'use strict';
/** Shared helpers of the benchmarks: processes, ports, RSS sampling, autocannon, a tiny API client. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function log(...args) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${args.join(' ')}\n`);
}

/** A TCP port nobody listens on right now (loopback only). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Every child started here, so that they all die at the end, even on failure. */
const children = new Set();

/** True once `url` answers below 500. */
async function httpReady(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status < 500;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Starts a process (output to bench/results/<name>.log) and waits until `readyUrl` answers
 * (or `ready()` resolves true). Returns { pid, child, stop() }; stop() sends SIGTERM, then SIGKILL after 5 s.
 */
async function startProcess(name, cmd, args, { env = {}, readyUrl, ready, timeoutMs = 90_000, cwd = ROOT } = {}) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const out = fs.openSync(path.join(RESULTS_DIR, `${name}.log`), 'w');
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.add(child);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    children.delete(child);
  });
  const stop = () => stopChild(child);
  const isReady = ready ?? (readyUrl ? () => httpReady(readyUrl) : null);
  const deadline = Date.now() + timeoutMs;
  while (isReady && !(await isReady())) {
    if (exited) throw new Error(`${name} exited during startup (${JSON.stringify(exited)}): see bench/results/${name}.log`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} not ready after ${timeoutMs} ms: see bench/results/${name}.log`);
    }
    await sleep(200);
  }
  return { name, pid: child.pid, child, stop };
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function stopAll() {
  await Promise.all([...children].map(stopChild));
}

/** Last resort on an abrupt exit: synchronous SIGKILL of whatever is left. */
function killAllNow() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // gone
    }
  }
}

/** Runs a command to completion and returns its stdout (throws with stderr on a non-zero exit). */
function run(cmd, args, { env = {}, cwd = ROOT } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.trim().slice(-2000)}`));
    });
  });
}

/** VmRSS of a process in bytes, from /proc/<pid>/status. */
function rssBytes(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

/**
 * CPU time (user + system) a process and its live child processes (the API processes of a
 * WEB_CONCURRENCY cluster) have used so far, in ms, from /proc/<pid>/stat (100 ticks/s).
 */
/**
 * CPU-ms of each thread group of a live process (/proc/<pid>/task/*): `main` (the JavaScript thread),
 * `libuv` (the thread pool: sharp's calls, fs), `vips` (libvips' own workers), `v8` (GC and compiler
 * helpers), `other`. Threads that exited meanwhile are missing: diff two readings taken while the
 * process runs (libvips keeps its pool alive between images).
 */
function threadCpuMs(pid) {
  const groups = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let comm;
    let fields;
    try {
      comm = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    } catch {
      continue; // exited meanwhile
    }
    const group = tid === String(pid) ? 'main' : /^libuv-worker/.test(comm) ? 'libuv' : /vips/i.test(comm) ? 'vips' : /V8|^DelayedTask/.test(comm) ? 'v8' : 'other';
    groups[group] = (groups[group] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return groups;
}

/**
 * CPU-ms used so far by every process of the machine, grouped: `service` (pid and its children),
 * `bench` (this process), `postgres`, `redis`, `other`; plus `machine` (all CPUs' busy time from
 * /proc/stat). Diff two readings: processes that exited meanwhile are missing from the groups.
 */
function machineCpuMs(servicePid) {
  const groups = { service: 0, bench: 0, postgres: 0, redis: 0, other: 0 };
  const serviceTree = new Set([String(servicePid)]);
  const stats = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.push({ pid, comm, ppid: fields[1], ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // exited meanwhile
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats) if (!serviceTree.has(s.pid) && serviceTree.has(s.ppid)) grew = serviceTree.add(s.pid);
  }
  for (const s of stats) {
    const group = serviceTree.has(s.pid) ? 'service' : s.pid === String(process.pid) ? 'bench' : /^postgres/.test(s.comm) ? 'postgres' : /^redis/.test(s.comm) ? 'redis' : 'other';
    groups[group] += s.ms;
  }
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  groups.machine = (user + nice + system + irq + softirq + steal) * 10;
  return groups;
}

function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) * 10;
  let children = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // no children file (older kernels): the process alone
  }
  return (
    own +
    children.reduce((sum, child) => {
      try {
        return sum + cpuMs(Number(child));
      } catch {
        return sum; // exited meanwhile
      }
    }, 0)
  );
}

/** Samples a process's RSS every `everyMs`; stop() returns { baseline, peak, growth } in bytes. */
function sampleRss(pid, everyMs = 100) {
  const baseline = rssBytes(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // process gone: keep what we have
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssBytes(pid));
      } catch {
        // gone
      }
      return { baseline, peak, growth: peak - baseline };
    },
  };
}

/** autocannon as a promise, reduced to the figures we report. */
async function cannon(opts) {
  const result = await autocannon({ method: 'GET', ...opts });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Runs autocannon on each named target in turn, `rounds` times (A B A B…), so that a change of the
 * machine's load hits both sides alike. Per target: req/s, p50, p99 averaged over the rounds, and,
 * when the target names the server's `pid`, the server's CPU time per request.
 */
async function cannonRounds(targets, { rounds, duration, ...opts }) {
  const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, { pid, ...target }] of Object.entries(targets)) {
      const cpuBefore = pid ? cpuMs(pid) : NaN;
      const result = await cannon({ ...opts, ...target, duration });
      runs[name].push({ ...result, cpuMsPerRequest: pid ? (cpuMs(pid) - cpuBefore) / result.total : NaN });
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        rps: mean(rs.map((r) => r.rps)),
        p50: mean(rs.map((r) => r.p50)),
        p99: mean(rs.map((r) => r.p99)),
        total: sum(rs.map((r) => r.total)),
        non2xx: sum(rs.map((r) => r.non2xx)),
        errors: sum(rs.map((r) => r.errors)),
        cpuMsPerRequest: mean(rs.map((r) => r.cpuMsPerRequest)),
        rounds: rs,
      },
    ]),
  );
}

/** Throws when a load run got error answers or socket errors: its figures would be meaningless. */
function assertClean(label, result) {
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors/timeouts`);
}

/** A minimal JSON client of the service. */
function apiClient(baseUrl, token) {
  return async function api(method, url, body, headers = {}) {
    const res = await fetch(baseUrl + url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (res.status >= 400) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 500)}`);
    return json;
  };
}

const MiB = 1024 * 1024;
const fmt = {
  n: (v, digits = 0) => (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a'),
  ms: (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms` : 'n/a'),
  pct: (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)} %` : 'n/a'),
  mib: (v) => (Number.isFinite(v) ? `${(v / MiB).toFixed(1)} MiB` : 'n/a'),
};

module.exports = {
  threadCpuMs,
  machineCpuMs,
  ROOT,
  RESULTS_DIR,
  MiB,
  sleep,
  log,
  freePort,
  startProcess,
  stopAll,
  killAllNow,
  run,
  rssBytes,
  cpuMs,
  sampleRss,
  cannon,
  cannonRounds,
  assertClean,
  apiClient,
  fmt,
};
