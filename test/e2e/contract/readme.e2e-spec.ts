import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { dropDatabase } from '../../support/databases';
import { TEST_QUEUE_PREFIX, TEST_REDIS_URL, TEST_RUN_ID } from '../../support/env';
import { testLogFile } from '../../support/log-lines';
import { deleteRedisKeys, freePort } from '../../support/test-app';

jest.setTimeout(300_000);

const ROOT = resolve(__dirname, '../../..');
const MARK = '<!-- walkthrough:';

/** The shell blocks of README.md marked as the walkthrough, in the README's order. */
export function walkthroughBlocks(readme: string): string[] {
  const blocks: string[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith(MARK)) continue;
    let start = i + 1;
    while (lines[start] === '') start++;
    if (!/^```(sh|bash)$/.test(lines[start])) throw new Error(`README.md:${i + 1}: a walkthrough mark not followed by a sh or bash block`);
    const end = lines.indexOf('```', start + 1);
    blocks.push(lines.slice(start + 1, end).join('\n'));
  }
  return blocks;
}

/**
 * README.md's curl walkthrough, run as written: the marked blocks, in order, by bash with `-e` and
 * `pipefail`, with `npm start &` starting the real service. Two things differ from a reader's
 * machine, both said here: the service's port, database, queue prefix and storage are this run's
 * own (environment variables, and `127.0.0.1:3000` in the text becomes this port), and every curl
 * without `-f` gets `--fail-with-body`, so an answer of 400 or more (a missing scope, a 404) stops
 * the script. A README that drifts from the service fails here.
 */
describe('README walkthrough', () => {
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/dropline_readme_${TEST_RUN_ID}_${Math.random().toString(36).slice(2, 8)}`;
  const queuePrefix = `${TEST_QUEUE_PREFIX}-readme`;
  let dir: string;
  let script: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-readme-'));
  });
  afterAll(async () => {
    // `npm start &` runs in the script's process group: end it with the script.
    if (script?.pid) {
      try {
        process.kill(-script.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await deleteRedisKeys(TEST_REDIS_URL, `${queuePrefix}:*`);
    await dropDatabase(databaseUrl).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the walkthrough blocks', () => {
    const blocks = walkthroughBlocks(readFileSync(process.env.README_UNDER_TEST ?? join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks[0]).toMatch(/^npm start &/);
  });

  it('runs from npm start to a template output, every answer a success', async () => {
    const port = await freePort();
    const blocks = walkthroughBlocks(readFileSync(process.env.README_UNDER_TEST ?? join(ROOT, 'README.md'), 'utf8'));
    const body = blocks.join('\n\n').replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    const prelude = [
      // Any answer of 400 or more ends the script (set -e), unless the line asked for -f itself.
      'curl() { case " $* " in *" -sf "*|*" -f "*) command curl "$@" ;; *) command curl --fail-with-body "$@" ;; esac; }',
    ].join('\n');
    const env = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      HOME: process.env.HOME ?? dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      STORAGE_DIR: join(dir, 'files'),
      LOG_FILE: testLogFile('readme'),
      ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
      ...(process.env.FFPROBE_PATH ? { FFPROBE_PATH: process.env.FFPROBE_PATH } : {}),
    };
    let output = '';
    script = spawn('bash', ['-euo', 'pipefail', '-c', `${prelude}\n${body}\n`], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    script.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    script.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A loop of the walkthrough waiting for something that never comes would hang: bounded, with what it printed.
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      new Promise<number | null>((done) => script!.once('exit', (exitCode) => done(exitCode))),
      new Promise<string>((done) => (timer = setTimeout(() => done('still running after 240 s'), 240_000))),
    ]);
    clearTimeout(timer);
    if (code !== 0) throw new Error(`the README walkthrough stopped (${typeof code === 'string' ? code : `exit ${code}`}):\n${output.slice(-4000)}`);
    // The converted photo, decoded by sharp as the README prints it.
    expect(output).toContain('webp 640 480');
    // The template's thumb: a signed link.
    expect(output.trim().split('\n').at(-1)).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\//);
  });
});
