#!/usr/bin/env node
/**
 * `prestart` / `prestart:worker`: runs `nest build` only when dist/ is older than its sources, and
 * never twice at once. Starting the API and a worker together used to run two builds into the same
 * dist/ (nest deletes it first), so one process could start from a half-written tree.
 *
 * - Stale: the newest mtime under src/ and generated/ and of tsconfig*.json, nest-cli.json,
 *   package.json and openapi.yaml is newer than the one recorded in dist/.build-stamp (or there is
 *   no stamp). The stamp records the newest mtime seen before the build, so a file edited during
 *   a build makes the next start build again.
 * - Lock: `dist.lock/`, created with mkdir (atomic: exactly one process succeeds). Whoever holds it
 *   builds; the others wait for it, then look at the stamp again (and usually skip). A lock whose
 *   owner is dead, or older than BUILD_LOCK_STALE_S (default 600), is taken over.
 *
 * BUILD_COMMAND overrides the build (tests use a stand-in). Exit code: the build's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const stampFile = join(root, 'dist', '.build-stamp');
const lockDir = join(root, 'dist.lock');
const staleAfterMs = Number(process.env.BUILD_LOCK_STALE_S ?? 600) * 1000;
const buildCommand = process.env.BUILD_COMMAND ?? 'npx nest build';
const INPUT_DIRS = ['src', 'generated'];
const INPUT_FILES = ['nest-cli.json', 'package.json', 'openapi.yaml'];

function newestMtime() {
  let newest = 0;
  const visit = (path) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return; // absent (generated/ before `npm run generate`) or removed meanwhile
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const dir of INPUT_DIRS) visit(join(root, dir));
  for (const name of readdirSync(root)) if (/^tsconfig.*\.json$/.test(name) || INPUT_FILES.includes(name)) visit(join(root, name));
  return newest;
}

function isCurrent() {
  if (!existsSync(stampFile)) return false;
  const built = Number(readFileSync(stampFile, 'utf8').trim());
  return Number.isFinite(built) && built >= newestMtime();
}

function ownerAlive() {
  try {
    const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is someone else's. No pid file yet: the owner is just creating it.
    return err.code === 'EPERM' || (err.code === 'ENOENT' && Date.now() - safeMtime(lockDir) < 5000);
  }
}

function safeMtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function tryLock() {
  try {
    mkdirSync(lockDir);
    writeFileSync(join(lockDir, 'pid'), String(process.pid));
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    if (!ownerAlive() || Date.now() - safeMtime(lockDir) > staleAfterMs) {
      console.error(`build-if-stale: taking over the stale lock ${lockDir}`);
      rmSync(lockDir, { recursive: true, force: true });
    }
    return false;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (isCurrent()) return 0;
  let waited = false;
  while (!tryLock()) {
    if (!waited) console.error('build-if-stale: another start is building dist/; waiting for it');
    waited = true;
    await sleep(200);
  }
  try {
    if (isCurrent()) return 0; // built by the process we waited for
    const sources = newestMtime();
    const result = spawnSync(buildCommand, { cwd: root, stdio: 'inherit', shell: true });
    if (result.status !== 0) return result.status ?? 1;
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(stampFile, `${sources}\n`);
    return 0;
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
