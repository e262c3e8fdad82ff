import { Upload } from '@tus/utils';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DurableFileStore } from './durable-file-store';

describe('DurableFileStore', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'dropline-tus-store-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('appends each PATCH at its offset and syncs it to disk before answering the new offset', async () => {
    const store = new DurableFileStore({ directory: dir });
    await store.create(new Upload({ id: 'u1', size: 6 * 65536, offset: 0 }));
    const probe = await open(join(dir, 'u1'), 'r');
    const fileHandle = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const sync = jest.spyOn(fileHandle, 'sync');
    try {
      const first = [Buffer.alloc(65536, 1), Buffer.alloc(65536, 2)];
      const second = [Buffer.alloc(65536, 3), Buffer.alloc(65536, 4), Buffer.alloc(2 * 65536, 5)];
      const afterFirst = await store.write(Readable.from(first.map((b) => Buffer.from(b))), 'u1', 0);
      expect(afterFirst).toBe(2 * 65536);
      expect(sync).toHaveBeenCalledTimes(1);
      expect(await store.write(Readable.from(second.map((b) => Buffer.from(b))), 'u1', afterFirst)).toBe(6 * 65536);
      expect(sync).toHaveBeenCalledTimes(2);
      expect(await readFile(join(dir, 'u1'))).toEqual(Buffer.concat([...first, ...second]));
      expect((await store.getUpload('u1')).offset).toBe(6 * 65536);
    } finally {
      sync.mockRestore();
    }
  });
});
