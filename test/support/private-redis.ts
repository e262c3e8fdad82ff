import { spawn, execFileSync } from 'node:child_process';
import { freePort } from './test-app';

/**
 * A throwaway redis-server on its own port, for tests that stop Redis. The machine's shared
 * Redis on 6379 is never touched.
 */
export async function startPrivateRedis(port?: number): Promise<{ url: string; port: number; stop: () => void; start: () => Promise<void> }> {
  const chosen = port ?? (await freePort());
  const start = async () => {
    const child = spawn('redis-server', ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore', detached: false });
    child.unref();
    for (let i = 0; i < 100; i++) {
      try {
        execFileSync('redis-cli', ['-p', String(chosen), 'ping'], { stdio: 'pipe' });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`private redis on ${chosen} did not start`);
  };
  const stop = () => {
    try {
      execFileSync('redis-cli', ['-p', String(chosen), 'shutdown', 'nosave'], { stdio: 'pipe' });
    } catch {
      // already down
    }
  };
  await start();
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, stop, start };
}
