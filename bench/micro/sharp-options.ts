/**
 * The service's sharp call (MediaEngine: probe, then transformImage with sequentialRead,
 * autoOrient, failOn and a timeout) against plain sharp and each of those options alone, on the
 * bench's 2725×2225 photo → 720 w, 2 at a time; CPU-ms and ms per image of this process.
 *   node -r @swc-node/register bench/micro/sharp-options.ts [variant …]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { MediaEngine } from '../../src/media/media-engine';
const dir = mkdtempSync(join(tmpdir(), 'tools-micro-'));
const input = join(dir, 'in.jpg');
async function fixture() {
  const W = 2725,
    H = 2225;
  const blobs = await sharp({ create: { width: 109, height: 89, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(W, H, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = await sharp({ create: { width: W, height: H, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 8 } } })
    .raw()
    .toBuffer();
  for (let i = 0; i < blobs.length; i++) blobs[i] = Math.max(0, Math.min(255, blobs[i] + grain[i] - 4));
  await sharp(blobs, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 85 })
    .toFile(input);
}
const media = new MediaEngine();
const variants: Record<string, (i: number) => Promise<unknown>> = {
  plain: (i) =>
    sharp(input)
      .resize({ width: 720, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(join(dir, `p${i}.jpg`)),
  seq: (i) =>
    sharp(input, { sequentialRead: true })
      .resize({ width: 720, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(join(dir, `s${i}.jpg`)),
  orient: (i) =>
    sharp(input, { autoOrient: true })
      .resize({ width: 720, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(join(dir, `o${i}.jpg`)),
  failOn: (i) =>
    sharp(input, { failOn: 'error' })
      .resize({ width: 720, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(join(dir, `f${i}.jpg`)),
  timeout: (i) =>
    sharp(input)
      .timeout({ seconds: 600 })
      .resize({ width: 720, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(join(dir, `t${i}.jpg`)),
  service: async (i) => {
    const p = await media.probe(input);
    return media.transformImage(input, join(dir, `svc${i}`), { width: 720, maintainAspectRatio: true }, p.image);
  },
};
async function run(name: string, n: number) {
  let next = 0;
  const cpu = process.cpuUsage();
  const t = performance.now();
  await Promise.all(
    [0, 1].map(async () => {
      while (next < n) await variants[name](next++);
    }),
  );
  const u = process.cpuUsage(cpu);
  return `${name}: ${((u.user + u.system) / 1000 / n).toFixed(1)} CPU-ms/job ${((performance.now() - t) / n).toFixed(1)} ms/job`;
}
void (async () => {
  await fixture();
  const only = process.argv.slice(2);
  for (const r of [0, 1, 2]) for (const name of Object.keys(variants)) if (!only.length || only.includes(name)) console.log(r, await run(name, 24));
})();
