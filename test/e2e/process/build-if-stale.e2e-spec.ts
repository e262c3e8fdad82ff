import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitUntil } from '../../support/processes';

const SCRIPT = resolve(__dirname, '../../../scripts/build-if-stale.mjs');

/**
 * Issue 12 item 8: `npm start` / `start:worker` build only a stale dist/, and two starts at once
 * build once. Run against a temp project whose "build" (BUILD_COMMAND) logs itself and holds on
 * until the test releases it, so the second start is seen waiting on the lock.
 */
describe('scripts/build-if-stale.mjs', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dropline-build-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'main.ts'), 'export {};\n');
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(
      join(dir, 'build.js'),
      `const fs = require('fs');
       fs.appendFileSync('builds.log', 'start\\n');
       fs.rmSync('dist', { recursive: true, force: true });
       const wait = () => fs.existsSync('release') ? (fs.mkdirSync('dist', { recursive: true }), fs.appendFileSync('builds.log', 'end\\n')) : setTimeout(wait, 20);
       wait();`,
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function run(): { child: ChildProcess; stderr: () => string; done: Promise<number | null> } {
    const child = spawn(process.execPath, [SCRIPT], { cwd: dir, env: { ...process.env, BUILD_COMMAND: 'node build.js' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    return { child, stderr: () => err, done: new Promise((r) => child.once('exit', (code) => r(code))) };
  }
  const builds = () => (existsSync(join(dir, 'builds.log')) ? readFileSync(join(dir, 'builds.log'), 'utf8').trim().split('\n') : []);

  it('two starts at once build once; the second waits on the lock, then skips', async () => {
    const first = run();
    await waitUntil('the first build to start', () => builds().length === 1, 60_000, 20);
    const second = run();
    await waitUntil('the second start to wait on the lock', () => second.stderr().includes('waiting'), 60_000, 20);
    expect(existsSync(join(dir, 'dist.lock'))).toBe(true);
    expect(builds()).toEqual(['start']);
    writeFileSync(join(dir, 'release'), '');
    expect(await first.done).toBe(0);
    expect(await second.done).toBe(0);
    expect(builds()).toEqual(['start', 'end']);
    expect(existsSync(join(dir, 'dist', '.build-stamp'))).toBe(true);
    expect(existsSync(join(dir, 'dist.lock'))).toBe(false);
  });

  it('skips while dist/ is current and builds again after a source changes', async () => {
    writeFileSync(join(dir, 'release'), '');
    expect(await run().done).toBe(0);
    expect(await run().done).toBe(0);
    expect(builds()).toEqual(['start', 'end']);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'src', 'main.ts'), later, later);
    expect(await run().done).toBe(0);
    expect(builds()).toEqual(['start', 'end', 'start', 'end']);
    // tsconfig files count as sources too.
    writeFileSync(join(dir, 'tsconfig.build.json'), '{}\n');
    const evenLater = new Date(Date.now() + 120_000);
    utimesSync(join(dir, 'tsconfig.build.json'), evenLater, evenLater);
    expect(await run().done).toBe(0);
    expect(builds()).toHaveLength(6);
  });

  it('takes over a lock left by a dead process', async () => {
    writeFileSync(join(dir, 'release'), '');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    mkdirSync(join(dir, 'dist.lock'));
    writeFileSync(join(dir, 'dist.lock', 'pid'), String(dead.pid));
    const start = run();
    expect(await start.done).toBe(0);
    expect(start.stderr()).toContain('stale lock');
    expect(builds()).toEqual(['start', 'end']);
  });
});
