import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** In a child process: the process must really die, and jest's own handlers must stay. */
describe('logFatalErrors', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'fatal-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function run(body: string): { status: number | null; stderr: string; lines: Record<string, unknown>[] } {
    const logFile = join(dir, 'log.ndjson');
    const script = `
      const net = require('node:net');
      const { createRootLogger } = require('./src/logging/root-logger');
      const { logFatalErrors, withRunningJob } = require('./src/logging/fatal-errors');
      logFatalErrors(createRootLogger({ LOG_LEVEL: 'info', LOG_FILE: ${JSON.stringify(logFile)} }));
      ${body}`;
    const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { status: child.status, stderr: child.stderr, lines };
  }

  it('an exception thrown from a socket event handler during a job is one fatal line naming the job, then exit 1', () => {
    const { status, stderr, lines } = run(`
      const server = net.createServer((s) => s.end('x')).listen(0, '127.0.0.1', () => {
        void withRunningJob('job_other', () => new Promise(() => undefined));
        void withRunningJob('job_poison', () => new Promise(() => {
          net.connect(server.address().port, '127.0.0.1').resume().on('end', () => { throw new Error('assert(!this.paused)'); });
        }));
      });`);
    expect({ status, stderr }).toEqual({ status: 1, stderr: '' });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'fatal',
        context: 'Process',
        msg: 'uncaughtException: assert(!this.paused); exiting',
        jobId: 'job_poison',
        runningJobs: ['job_other', 'job_poison'],
        err: expect.objectContaining({ message: 'assert(!this.paused)', stack: expect.stringContaining('Socket.') }),
      }),
    ]);
  });

  it('an unhandled rejection outside any job is logged and ends the process too', () => {
    const { status, lines } = run(`void Promise.reject(new Error('nobody waits for me'));`);
    expect(status).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ level: 'fatal', msg: 'unhandledRejection: nobody waits for me; exiting', runningJobs: [] })]);
    expect(lines[0]).not.toHaveProperty('jobId');
  });
});
