import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DurableFileSink } from './durable-file-sink';
import { FileTooLargeError } from './storage.driver';

describe('DurableFileSink', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'dropline-sink-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, i % 251));
  /** One chunk at a time, as a network upload arrives (a fast source would be written in writev batches). */
  async function* trickle(buffers: Buffer[]) {
    for (const b of buffers) {
      await new Promise((r) => setTimeout(r, 1));
      yield b;
    }
  }

  it('with a position, writes there and leaves the bytes before it (a tus PATCH at its offset)', async () => {
    const path = join(dir, 'at.bin');
    await writeFile(path, Buffer.alloc(3000, 7));
    const handle = await open(path, 'r+'); // its own position: 0
    const body = chunks(5, 1024);
    const sink = new DurableFileSink(handle, { position: 3000, flushEvery: 2048 });
    await pipeline(Readable.from(trickle(body)), sink);
    await handle.close();
    expect(sink.bytes).toBe(5 * 1024);
    expect(await readFile(path)).toEqual(Buffer.concat([Buffer.alloc(3000, 7), ...body]));
  });

  it('writes every byte in order, flushing in the background while streaming and syncing at the end', async () => {
    const path = join(dir, 'a.bin');
    const handle = await open(path, 'w');
    const calls: string[] = [];
    const datasync = handle.datasync.bind(handle);
    const sync = handle.sync.bind(handle);
    handle.datasync = () => (calls.push('datasync'), datasync());
    handle.sync = () => (calls.push('sync'), sync());
    const sink = new DurableFileSink(handle, { flushEvery: 4096 });
    const body = chunks(40, 1024);
    await pipeline(Readable.from(trickle(body)), sink);
    await handle.close();
    expect(sink.bytes).toBe(40 * 1024);
    expect(await readFile(path)).toEqual(Buffer.concat(body));
    expect(calls.filter((c) => c === 'datasync').length).toBeGreaterThanOrEqual(5); // ~every 4 KiB, not only at the end
    expect(calls[calls.length - 1]).toBe('sync');
  });

  it('errors with FileTooLargeError past maxBytes, never writing beyond it', async () => {
    const path = join(dir, 'b.bin');
    const handle = await open(path, 'w');
    const sink = new DurableFileSink(handle, { maxBytes: 2500 });
    await expect(pipeline(Readable.from(trickle(chunks(5, 1000))), sink)).rejects.toBeInstanceOf(FileTooLargeError);
    await handle.close();
    expect((await readFile(path)).length).toBeLessThanOrEqual(2500);
    expect(sink.bytes).toBeGreaterThan(2500);
  });

  it('accepts exactly maxBytes', async () => {
    const handle = await open(join(dir, 'c.bin'), 'w');
    const sink = new DurableFileSink(handle, { maxBytes: 3000 });
    await pipeline(Readable.from(chunks(3, 1000)), sink);
    await handle.close();
    expect(sink.bytes).toBe(3000);
  });

  it('with releaseWritten, frees each written chunk that is a whole buffer of its own, and only those', async () => {
    const path = join(dir, 'd.bin');
    const handle = await open(path, 'w');
    const own = chunks(4, 64 * 1024); // like the HTTP parser's body buffers
    const shared = Buffer.alloc(128 * 1024, 9);
    const partOf = shared.subarray(0, 64 * 1024); // a view of part of a buffer
    const small = Buffer.alloc(1024, 3); // under RELEASE_MIN_BYTES (a parser's scratch buffer)
    const expected = Buffer.concat([...own, partOf, small]);
    const sink = new DurableFileSink(handle, { releaseWritten: true });
    await pipeline(Readable.from(trickle([...own, partOf, small])), sink);
    await handle.close();
    expect(await readFile(path)).toEqual(expected);
    expect(own.map((b) => b.length)).toEqual([0, 0, 0, 0]); // detached: memory given back
    expect(shared.length).toBe(128 * 1024);
    expect(small.length).toBe(1024);
  });

  it("without releaseWritten, leaves the caller's buffers alone", async () => {
    const handle = await open(join(dir, 'e.bin'), 'w');
    const body = chunks(2, 64 * 1024);
    await pipeline(Readable.from(trickle(body)), new DurableFileSink(handle));
    await handle.close();
    expect(body.map((b) => b.length)).toEqual([64 * 1024, 64 * 1024]);
  });
});
