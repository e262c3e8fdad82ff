/**
 * CPU of a worker's image-resize job without the queue, the database and the network, stage by
 * stage, against sharp alone: temp dir, input written (as the fetch writes it), probe, resize,
 * output stored (LocalStorageDriver.putFile: link + fdatasync), temp dir removed. 2 at a time.
 *   node -r @swc-node/register bench/micro/worker-path.ts [jobs per round] [rounds]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { MediaEngine } from '../../src/media/media-engine';
import { LocalStorageDriver } from '../../src/storage/local-storage.driver';

const perRound = Number(process.argv[2] ?? 24);
const rounds = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'dropline-worker-path-'));
const media = new MediaEngine();
const storage = new LocalStorageDriver(join(dir, 'store'), null as never);
let body: Buffer;

type Stage = 'mkdtemp' | 'write input' | 'probe' | 'resize' | 'store' | 'rm';
const stageCpu: Record<string, number> = {};

/** Runs one stage, adding the CPU this process used meanwhile (both jobs' threads) to its name. */
async function stage<T>(name: Stage, fn: () => Promise<T>): Promise<T> {
  const before = process.cpuUsage();
  try {
    return await fn();
  } finally {
    const used = process.cpuUsage(before);
    stageCpu[name] = (stageCpu[name] ?? 0) + (used.user + used.system) / 1000;
  }
}

async function workerJob(i: number): Promise<void> {
  const job = await stage('mkdtemp', () => mkdtemp(join(dir, `job-${i}-`)));
  const input = join(job, 'input');
  await stage('write input', () => writeFile(input, body));
  const probe = await stage('probe', () => media.probe(input));
  const output = await stage('resize', () => media.transformImage(input, join(job, 'out'), { width: 720, maintainAspectRatio: true }, probe.image));
  await stage('store', () => storage.putFile(`obj_w_${i}`, output.path));
  await stage('rm', () => rm(job, { recursive: true, force: true }));
}

async function sharpAlone(i: number, input: string): Promise<void> {
  await sharp(input)
    .resize({ width: 720, fit: 'inside' })
    .jpeg({ quality: 80 })
    .toFile(join(dir, `ref-${i}.jpg`));
}

async function run(job: (i: number) => Promise<void>, offset: number): Promise<number> {
  let next = 0;
  const cpu = process.cpuUsage();
  await Promise.all(
    [0, 1].map(async () => {
      while (next < perRound) await job(offset + next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / perRound;
}

async function main(): Promise<void> {
  mkdirSync(join(dir, 'store'), { recursive: true });
  const input = join(dir, 'photo.jpg');
  const blobs = await sharp({ create: { width: 109, height: 89, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .resize(2725, 2225)
    .jpeg({ quality: 85 })
    .toBuffer();
  await sharp(blobs).toFile(input);
  body = readFileSync(input);
  await run(workerJob, 100000); // warm-up
  await run((i) => sharpAlone(i, input), 100000);
  for (const k of Object.keys(stageCpu)) delete stageCpu[k];
  const worker: number[] = [];
  const alone: number[] = [];
  for (let r = 0; r < rounds; r++) {
    worker.push(await run(workerJob, r * 1000));
    alone.push(await run((i) => sharpAlone(i, input), r * 1000));
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' · ');
  console.log(`worker path ${fmt(worker)} CPU-ms/job; sharp alone ${fmt(alone)} CPU-ms/job`);
  // Stages overlap (two jobs at once): each figure is the CPU the process used while a job was in that stage, halved.
  console.log(
    Object.entries(stageCpu)
      .map(([k, v]) => `${k} ${(v / 2 / (rounds * perRound)).toFixed(1)}`)
      .join(' · '),
    '(CPU-ms/job, approx.)',
  );
  rmSync(dir, { recursive: true, force: true });
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
