import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { TEST_RUN_ID } from './env';

/**
 * Every log line a test run produces is collected under tmp/logs/<TEST_RUN_ID>/ (in-process apps
 * through LOG_FILE, spawned API and worker processes through their captured stdout and stderr, the
 * admin CLI's stderr), and checked once jest is done (global-teardown.ts): each line must be one
 * JSON object of the shape README § Logging defines. A line that is not fails the run.
 */

const ROOT = resolve(__dirname, '../..');
const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);
/** Every line has these, with these types. */
const REQUIRED = { level: 'string', time: 'string', msg: 'string' } as const;
/** Keys pino adds when a logger bypasses createRootLogger (its `base`): a line of another shape. */
const FOREIGN = new Set(['pid', 'hostname', 'v', 'name']);
const FIELD = /^[a-z][A-Za-z0-9]*$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function testLogDir(runId = TEST_RUN_ID): string {
  return join(ROOT, 'tmp', 'logs', runId);
}

/** A file of its own for one writer (an app, a process, the CLI's output) of this run. */
export function testLogFile(kind: string): string {
  return join(testLogDir(), `${kind}-${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.ndjson`);
}

/** Why `line` is not a log line of ours, or undefined when it is. */
export function logLineProblem(line: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const entry = value as Record<string, unknown>;
  for (const [key, type] of Object.entries(REQUIRED)) {
    if (typeof entry[key] !== type) return `no ${type} "${key}"`;
  }
  if (!LEVELS.has(entry.level as string)) return `level ${JSON.stringify(entry.level)} is not a level name`;
  if (!ISO_TIME.test(entry.time as string)) return `time ${JSON.stringify(entry.time)} is not ISO 8601 UTC`;
  const foreign = Object.keys(entry).filter((k) => FOREIGN.has(k));
  if (foreign.length > 0) return `keys of another logger: ${foreign.join(', ')}`;
  const odd = Object.keys(entry).filter((k) => !FIELD.test(k));
  if (odd.length > 0) return `field names that are not camelCase: ${odd.join(', ')}`;
  return undefined;
}

/**
 * Printed by Node itself, not by our logger, when a test starts a process with `--inspect` (the
 * soak test forces garbage collections through the inspector): not log lines, so not checked.
 */
const NODE_INSPECTOR_BANNER =
  /^(Debugger listening on ws:\/\/\S+|Debugger ending on ws:\/\/\S+|Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|For help, see: https:\/\/nodejs\.org\/(en\/docs\/inspector|learn\/getting-started\/debugging))$/;

/** Every offending line of every file under `dir`, as `file:line: problem: text`. */
export function logProblems(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const problems: string[] = [];
  for (const file of filesUnder(dir)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '' || NODE_INSPECTOR_BANNER.test(line)) return;
        const problem = logLineProblem(line);
        if (problem) problems.push(`${relative(ROOT, file)}:${i + 1}: ${problem}: ${line.slice(0, 300)}`);
      });
  }
  return problems;
}

/** Checks the run's log lines; throws listing the offending ones, removes them when all are fine. */
export function checkRunLogs(dir = testLogDir()): { files: number; lines: number } {
  const problems = logProblems(dir);
  if (problems.length > 0) {
    const shown = problems.slice(0, 50).join('\n  ');
    throw new Error(`${problems.length} log line(s) of this run are not JSON of the logging shape (README § Logging):\n  ${shown}`);
  }
  const files = existsSync(dir) ? filesUnder(dir) : [];
  const lines = files.reduce(
    (n, f) =>
      n +
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length,
    0,
  );
  rmSync(dir, { recursive: true, force: true });
  return { files: files.length, lines };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
