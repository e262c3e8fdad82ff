import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A run's working directory (its input, its tool's outputs). `release(true)` empties it for the next
 * run; `release(false)` removes it — after a run that failed or was stopped, whose tool's processes
 * may not all be gone yet: nothing they still write can land in another run's directory.
 */
export interface RunDir {
  path: string;
  release(reuse: boolean): Promise<void>;
}

/**
 * Working directories for job runs, reused: one per run at a time in this process, emptied when a
 * run ends rather than removed and made again. Creating a directory is the costliest file operation
 * of an image job on ext4 (a new inode placed by the Orlov allocator, which scans for recently
 * deleted ones: ~3 % of the machine's CPU in the image bench when every run made two, bench/RESULTS.md).
 * All live under one directory of this process in the OS temp dir (`dropline-runs-<pid>-…`), removed at
 * shutdown once no run uses it.
 */
@Injectable()
export class RunDirs implements OnModuleDestroy {
  private root?: Promise<string>;
  private readonly free: string[] = [];
  private made = 0;
  private inUse = 0;
  private closing = false;

  async acquire(): Promise<RunDir> {
    const path = this.free.pop() ?? (await this.make());
    this.inUse++;
    return {
      path,
      release: async (reuse) => {
        this.inUse--;
        try {
          if (reuse && !this.closing) {
            await this.empty(path);
            this.free.push(path);
          } else {
            await rm(path, { recursive: true, force: true });
          }
        } finally {
          if (this.closing && this.inUse === 0) await this.removeRoot();
        }
      },
    };
  }

  /**
   * Shutdown: the free directories go now; one still in use (a run the worker's close left running
   * until the process exits) stays until its run releases it — removing it under a running tool
   * failed that attempt (fault test graceful-shutdown).
   */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.inUse === 0) await this.removeRoot();
    else await Promise.all(this.free.splice(0).map((path) => rm(path, { recursive: true, force: true })));
  }

  /** A run that starts after this (the worker not yet closed) gets a new root, removed when it ends. */
  private async removeRoot(): Promise<void> {
    const root = this.root;
    this.root = undefined;
    this.free.length = 0;
    if (root) await rm(await root, { recursive: true, force: true });
  }

  private async make(): Promise<string> {
    this.root ??= mkdtemp(join(tmpdir(), `dropline-runs-${process.pid}-`)); // whose they are, for an operator
    const path = join(await this.root, `run-${this.made++}`);
    await mkdir(path);
    return path;
  }

  /** Removes what a run left (if that fails, the directory stays out of the pool: the next run gets a new one). */
  private async empty(path: string): Promise<void> {
    const entries = await readdir(path);
    await Promise.all(entries.map((entry) => rm(join(path, entry), { recursive: true, force: true })));
  }
}
