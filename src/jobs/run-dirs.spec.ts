import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RunDirs } from './run-dirs';

describe('RunDirs', () => {
  const dirs = new RunDirs();
  afterAll(() => dirs.onModuleDestroy());

  it('hands an emptied directory to the next run after a normal end, a new one after a failed or stopped run', async () => {
    const first = await dirs.acquire();
    await writeFile(join(first.path, 'input'), 'bytes');
    await mkdir(join(first.path, 'frames'));
    await writeFile(join(first.path, 'frames', 'f1.png'), 'png');
    const concurrent = await dirs.acquire();
    expect(concurrent.path).not.toBe(first.path); // two runs at once never share one
    await first.release(true);

    const second = await dirs.acquire();
    expect(second.path).toBe(first.path);
    expect(await readdir(second.path)).toEqual([]);
    await writeFile(join(second.path, 'output.jpg'), 'partial');
    await second.release(false);
    await expect(stat(second.path)).rejects.toMatchObject({ code: 'ENOENT' });

    await concurrent.release(true);
    const third = await dirs.acquire();
    expect(third.path).toBe(concurrent.path);
    const fourth = await dirs.acquire();
    expect([first.path, concurrent.path]).not.toContain(fourth.path);
  });

  it('removes every run directory at shutdown, one still in use only once its run releases it', async () => {
    const own = new RunDirs();
    const idle = await own.acquire();
    await idle.release(true);
    const running = await own.acquire();
    const other = await own.acquire();
    await writeFile(join(running.path, 'input'), 'being read');
    await own.onModuleDestroy();
    expect(await readdir(running.path)).toEqual(['input']); // a run the worker's close left running keeps its input
    await running.release(true); // not kept for reuse after shutdown
    await expect(stat(running.path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(dirname(running.path))).isDirectory()).toBe(true); // `other` still runs
    await other.release(true);
    await expect(stat(dirname(running.path))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
