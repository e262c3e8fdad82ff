import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createRootLogger } from '../../src/logging/root-logger';
import { checkRunLogs, logLineProblem, logProblems } from './log-lines';

describe('the run log check', () => {
  const good = '{"level":"info","time":"2026-11-22T18:00:00.000Z","context":"RunJob","jobId":"job_1","msg":"Job completed"}';

  it('accepts the lines createRootLogger writes, fields included', () => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const logger = createRootLogger({ LOG_LEVEL: 'trace' }, 1, out);
    logger.info({ context: 'Main', port: 3000 }, 'listening');
    logger.error({ err: new Error('boom'), reqId: 'r1' }, 'failed');
    logger.warn('plain');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(logLineProblem(line)).toBeUndefined();
    expect(logLineProblem(good)).toBeUndefined();
  });

  it('LOG_FILE: the lines go to that file, its directory made on the way', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-file-')), 'nested', 'app.ndjson');
    createRootLogger({ LOG_LEVEL: 'info', LOG_FILE: file }).info({ context: 'Test' }, 'to the file');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', context: 'Test', msg: 'to the file' });
  });

  it.each([
    ['Nest application successfully started', 'not JSON'],
    ['(node:123) Warning: something', 'not JSON'],
    ['[1,2]', 'not a JSON object'],
    ['{"time":"2026-11-22T18:00:00.000Z","msg":"x"}', 'no string "level"'],
    ['{"level":30,"time":"2026-11-22T18:00:00.000Z","msg":"x"}', 'no string "level"'],
    ['{"level":"loud","time":"2026-11-22T18:00:00.000Z","msg":"x"}', 'is not a level name'],
    ['{"level":"info","time":1795372200000,"msg":"x"}', 'no string "time"'],
    ['{"level":"info","time":"yesterday","msg":"x"}', 'is not ISO 8601'],
    ['{"level":"info","time":"2026-11-22T18:00:00.000Z"}', 'no string "msg"'],
    ['{"level":"info","time":"2026-11-22T18:00:00.000Z","pid":1,"hostname":"h","msg":"x"}', 'keys of another logger: pid, hostname'],
    ['{"level":"info","time":"2026-11-22T18:00:00.000Z","msg":"x","job_id":"j"}', 'not camelCase: job_id'],
  ])('refuses %s', (line, problem) => {
    expect(logLineProblem(line)).toContain(problem);
  });

  it('fails the run naming the file and line of each bad line, and keeps the files then', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-check-'));
    mkdirSync(join(dir, 'processes'));
    writeFileSync(join(dir, 'app-1.ndjson'), `${good}\n${good}\n`);
    writeFileSync(join(dir, 'processes', 'worker-1.log'), `${good}\nWorker ready\n\n${good}\n`);
    expect(logProblems(dir)).toEqual([expect.stringMatching(/processes\/worker-1\.log:2: not JSON: Worker ready$/)]);
    expect(() => checkRunLogs(dir)).toThrow(/1 log line\(s\) of this run are not JSON[\s\S]*worker-1\.log:2/);
    expect(logProblems(dir)).toHaveLength(1); // still there to read
  });

  it("skips Node's own inspector banner of a process started with --inspect, nothing like it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-check-'));
    const banner = [
      'Debugger listening on ws://127.0.0.1:34947/5f4aa2a0-941d-44b3-b6e5-62c7e56bc7f7',
      'For help, see: https://nodejs.org/en/docs/inspector',
      'For help, see: https://nodejs.org/learn/getting-started/debugging', // Node 26's wording
      'Debugger attached.',
      'Debugger ending on ws://127.0.0.1:34947/5f4aa2a0-941d-44b3-b6e5-62c7e56bc7f7',
    ];
    writeFileSync(join(dir, 'api-1.log'), [...banner, good, 'Debugger attached. Worker ready'].join('\n'));
    expect(logProblems(dir)).toEqual([expect.stringMatching(/api-1\.log:7: not JSON: Debugger attached\. Worker ready$/)]);
  });

  it('passes a run whose lines are all good, counting them, and removes the files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-check-'));
    writeFileSync(join(dir, 'app-1.ndjson'), `${good}\n${good}\n`);
    expect(checkRunLogs(dir)).toEqual({ files: 1, lines: 2 });
    expect(checkRunLogs(dir)).toEqual({ files: 0, lines: 0 });
  });
});
