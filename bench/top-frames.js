'use strict';
/**
 * The top frames of a V8 CPU profile (from `npm run bench -- --profile`), by self time, and the
 * self time per package / source folder. --from/--to keep only the samples in that window (seconds
 * since the profile began), e.g. to leave out the start-up.
 *   node bench/top-frames.js bench/results/profiles/CPU.….cpuprofile [count] [--from=8] [--to=20]
 */
const fs = require('node:fs');
const path = require('node:path');

const opts = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
);
const [file, count = '25'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const fromUs = Number(opts.from ?? 0) * 1e6;
const toUs = Number(opts.to ?? Infinity) * 1e6;
if (!file) {
  console.error('usage: node bench/top-frames.js <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map(profile.nodes.map((n) => [n.id, 0]));
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= fromUs && at <= toUs) self.set(profile.samples[i], self.get(profile.samples[i]) + (profile.timeDeltas[i] ?? 0));
}
const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

/** Where a frame's code lives: a package name, a src/ folder, node internals, or the VM itself. */
function area(url) {
  if (!url) return '(vm)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const src = /\/src\/([^/]+)\//.exec(url);
  if (src) return `src/${src[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return path.basename(url);
}

const frames = new Map();
const areas = new Map();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'}  ${url ? `${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  frames.set(key, (frames.get(key) ?? 0) + us);
  areas.set(area(url), (areas.get(area(url)) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)} %`;
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);

console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled\n\nself time by area:`);
for (const [name, us] of top(areas, 15)) console.log(`${pct(us)}  ${name}`);
console.log(`\ntop ${count} frames by self time:`);
for (const [name, us] of top(frames, Number(count))) console.log(`${pct(us)}  ${name}`);
