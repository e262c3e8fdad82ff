/**
 * How long an idle BullMQ worker, with the media workers' options, takes to start a job after it is
 * added (median and max of 40, one at a time, at its fair-share priority): a worker that polled
 * would show up to its poll period here; one blocked on Redis (BZPOPMIN on the queue's marker) wakes
 * in about a round trip. Uses the local Redis (REDIS_URL or 127.0.0.1:6379) under a throwaway prefix.
 *   node -r @swc-node/register bench/micro/worker-wakeup.ts
 */
import { Queue, Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';

const connection = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', maxRetriesPerRequest: null };
const prefix = `bull:wakeup-${randomUUID()}`;

async function main(): Promise<void> {
  const queue = new Queue('image-standard-queue', { connection, prefix });
  let started: (at: number) => void = () => undefined;
  const worker = new Worker(
    'image-standard-queue',
    async () => {
      started(performance.now());
    },
    { connection, prefix, concurrency: 2, maxStalledCount: 1, lockDuration: 30_000, stalledInterval: 30_000 },
  );
  await worker.waitUntilReady();
  await new Promise((resolve) => setTimeout(resolve, 500)); // the worker is now idle, blocked on the queue
  const latencies: number[] = [];
  for (let i = 0; i < 40; i++) {
    const picked = new Promise<number>((resolve) => (started = resolve));
    const at = performance.now();
    await queue.add('run', { jobId: `job_${i}` }, { jobId: `job_${i}`, priority: 1 + (i % 3) });
    latencies.push((await picked) - at);
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80)); // idle again
  }
  latencies.sort((a, b) => a - b);
  console.log(`add → process: median ${latencies[20].toFixed(1)} ms, max ${latencies[39].toFixed(1)} ms (40 jobs, idle worker between them)`);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
