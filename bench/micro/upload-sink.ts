/**
 * Issue 9 item 5, A/B: 1 GiB streamed from a generator (1 MiB chunks, a short pause every 16 MiB
 * like a network transfer) into (a) the old local write path — ByteLimit Transform +
 * fs.WriteStream({ flush: true }) — and (b) DurableFileSink (writev, datasync every 64 MiB in the
 * background, fsync at the end). Alternated; reports MB/s and the tail: how long after the last
 * byte the write was durable (what a 201 waits for).
 *   node -r @swc-node/register bench/micro/upload-sink.ts [MiB] [rounds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DurableFileSink } from '../../src/storage/durable-file-sink';
import { ByteLimit } from '../../src/storage/storage.driver';

const MiB = 1024 * 1024;
const total = Number(process.argv[2] ?? 1024) * MiB;
const rounds = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'dropline-sink-bench-'));

function body(lastByteAt: { t: number }): Readable {
  const chunk = Buffer.alloc(MiB, 7);
  let sent = 0;
  return Readable.from(
    (async function* () {
      while (sent < total) {
        if (sent % (16 * MiB) === 0) await new Promise((r) => setImmediate(r));
        sent += MiB;
        yield chunk;
      }
      lastByteAt.t = performance.now();
    })(),
  );
}

async function once(kind: 'old' | 'new', i: number) {
  const handle = await open(join(dir, `${kind}-${i}`), 'wx');
  const last = { t: 0 };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const sinks: Writable[] = kind === 'old' ? [new ByteLimit(total), handle.createWriteStream({ flush: true })] : [new DurableFileSink(handle, { maxBytes: total })];
  await pipeline(body(last), ...(sinks as [Writable]));
  const done = performance.now();
  const used = process.cpuUsage(cpu);
  await handle.close().catch(() => undefined);
  rmSync(join(dir, `${kind}-${i}`));
  return { mbps: total / 1e6 / ((done - started) / 1000), tailS: (done - last.t) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

async function main() {
  const results: Record<string, { mbps: number; tailS: number; cpuMs: number }[]> = { old: [], new: [] };
  for (let i = 0; i < rounds; i++) for (const kind of ['old', 'new'] as const) results[kind].push(await once(kind, i));
  for (const [kind, rs] of Object.entries(results)) {
    console.log(kind, rs.map((r) => `${r.mbps.toFixed(0)} MB/s tail ${r.tailS.toFixed(2)} s cpu ${r.cpuMs.toFixed(0)} ms`).join(' | '));
  }
  rmSync(dir, { recursive: true, force: true });
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
