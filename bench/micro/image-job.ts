/**
 * Issue 9 item 4, A/B of a worker's image-resize work without the queue and the database:
 * (old) probe, transformImage reading the header again, the output re-read for its metadata and
 * stat, then stored by streaming a copy through fs.WriteStream({ flush: true });
 * (new) probe, transformImage with the probe's header and sharp's OutputInfo, stored by
 * LocalStorageDriver.putFile (hard link + datasync). Alternated, 2 at a time (the image worker's
 * concurrency here); reports CPU-ms per job of this process and ms per job.
 *   node -r @swc-node/register bench/micro/image-job.ts [jobs per round] [rounds]
 */
import { createReadStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { MediaEngine } from '../../src/media/media-engine';
import { LocalStorageDriver } from '../../src/storage/local-storage.driver';
import { ByteLimit } from '../../src/storage/storage.driver';

const perRound = Number(process.argv[2] ?? 24);
const rounds = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'dropline-image-bench-'));
const media = new MediaEngine();
const storage = new LocalStorageDriver(join(dir, 'store'), null as never);

async function oldJob(input: string, i: number) {
  const out = join(dir, `old-${i}`);
  mkdirSync(out);
  await media.probe(input);
  const output = await media.transformImage(input, out, { width: 720, maintainAspectRatio: true });
  await sharp(output.path, { limitInputPixels: false }).metadata();
  await stat(output.path);
  const handle = await open(join(dir, 'store', `old-copy-${i}`), 'wx');
  await pipeline(createReadStream(output.path), new ByteLimit(), handle.createWriteStream({ flush: true }));
  rmSync(out, { recursive: true });
}

async function newJob(input: string, i: number) {
  const out = join(dir, `new-${i}`);
  mkdirSync(out);
  const probe = await media.probe(input);
  const output = await media.transformImage(input, out, { width: 720, maintainAspectRatio: true }, probe.image);
  await storage.putFile(`obj_new_${i}`, output.path);
  rmSync(out, { recursive: true });
}

async function run(job: (input: string, i: number) => Promise<void>, input: string, offset: number) {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    [0, 1].map(async () => {
      while (next < perRound) await job(input, offset + next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { cpuMsPerJob: (used.user + used.system) / 1000 / perRound, msPerJob: (performance.now() - started) / perRound };
}

async function main() {
  mkdirSync(join(dir, 'store'), { recursive: true });
  const input = join(dir, 'input.jpg');
  // The bench's fixture size: a 2725×2225 photo-like JPEG.
  const noise = await sharp({ create: { width: 109, height: 89, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(2725, 2225)
    .jpeg({ quality: 85 })
    .toBuffer();
  await sharp(noise).toFile(input);
  await run(newJob, input, 100000); // warm-up
  await run(oldJob, input, 200000);
  const res: Record<string, { cpuMsPerJob: number; msPerJob: number }[]> = { old: [], new: [] };
  for (let r = 0; r < rounds; r++) {
    res.old.push(await run(oldJob, input, r * 1000));
    res.new.push(await run(newJob, input, r * 1000 + 500));
  }
  for (const [k, rs] of Object.entries(res)) console.log(k, rs.map((x) => `${x.cpuMsPerJob.toFixed(1)} CPU-ms/job ${x.msPerJob.toFixed(0)} ms/job`).join(' | '));
  rmSync(dir, { recursive: true, force: true });
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
