import { readFileSync } from 'node:fs';
import { createDroplineClient } from '../../../generated/client';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../support/env';
import { removeDir, tempStorageDir } from '../../support/intake';
import { waitForJob } from '../../support/jobs';
import { makePng, serveFiles } from '../../support/media-fixtures';
import { type ApiProcess, createTenant, startApi } from '../../support/processes';
import type { JobAccepted } from '../../../generated/types';

interface LogLine {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Issue 12 item 4: the real server process (`src/main.ts`) logs one JSON object per line, all in
 * one shape — level, time, msg, then fields (reqId in requests, jobId for a job) — from its start
 * to its shutdown.
 */
describe('log lines of the real server process', () => {
  let api: ApiProcess;
  let dir: string;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let lines: LogLine[];
  let raw: string[];
  let jobId: string;
  const requestId = 'logs-e2e-request-1';

  beforeAll(async () => {
    dir = await tempStorageDir('logs');
    files = await serveFiles({ 'icon.png': await makePng() });
    api = await startApi({
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORAGE_DIR: dir,
      LOG_LEVEL: 'info',
      WORKER_IN_PROCESS: 'true',
      ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      QUEUE_PREFIX: `bull:test-logs-${Math.random().toString(36).slice(2, 8)}`,
    });
    const tenant = await createTenant(TEST_DATABASE_URL);
    const client = createDroplineClient({ baseUrl: api.baseUrl, token: tenant.token });
    const { data } = await client.POST('/v1/jobs', {
      body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 8 } },
      headers: { 'x-request-id': requestId },
    });
    jobId = (data as JobAccepted).id;
    expect((await waitForJob(client, jobId)).state).toBe('completed');
    await client.GET('/v1/drops/{slug}', { params: { path: { slug: 'no-such-drop' } } });
    expect((await api.stop('SIGTERM')).forced).toBe(false);
    raw = readFileSync(api.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    lines = raw.map((l) => JSON.parse(l) as LogLine);
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await files?.close();
    await removeDir(dir);
  });

  it('every line is a JSON object led by level and time, with a msg', () => {
    expect(raw.length).toBeGreaterThan(5);
    for (const line of lines) {
      expect(Object.keys(line).slice(0, 2)).toEqual(['level', 'time']);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(typeof line.msg).toBe('string');
    }
  });

  it('logs the start and the shutdown', () => {
    const msgs = lines.map((l) => l.msg);
    expect(msgs.some((m) => m.startsWith('Dropline API listening on'))).toBe(true);
    expect(msgs.indexOf('Shutting down')).toBeGreaterThan(0);
    expect(msgs[msgs.length - 1]).toBe('Stopped');
  });

  it('each request once, with its reqId (the X-Request-Id given or answered)', () => {
    const requests = lines.filter((l) => l.reqId !== undefined && l.res !== undefined);
    const post = requests.find((l) => l.reqId === requestId)!;
    expect(post).toMatchObject({ level: 'info', req: { method: 'POST', url: '/v1/jobs' }, res: { statusCode: 202 }, responseTime: expect.any(Number) });
    expect(requests.filter((l) => l.reqId === requestId)).toHaveLength(1);
    expect(requests.some((l) => (l.res as { statusCode: number }).statusCode === 404)).toBe(true);
  });

  it("the job's lifecycle at info, with jobId as a field", () => {
    const mine = lines.filter((l) => l.jobId === jobId);
    expect(mine.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'Job queued'],
      ['info', 'Job started'],
      ['info', 'Job completed'],
    ]);
    // The queued line is written inside the request: it carries the request's id too.
    expect(mine[0].reqId).toBe(requestId);
  });
});
