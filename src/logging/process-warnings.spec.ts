import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** In a child process: the test must not take jest's own warning listeners away. */
describe('logProcessWarnings', () => {
  it('turns a library warning into one JSON log line instead of plain text on stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warnings-'));
    try {
      const logFile = join(dir, 'log.ndjson');
      const script = `
        const { createRootLogger } = require('./src/logging/root-logger');
        const { logProcessWarnings } = require('./src/logging/process-warnings');
        logProcessWarnings(createRootLogger({ LOG_LEVEL: 'info', LOG_FILE: ${JSON.stringify(logFile)} }));
        process.emitWarning('Node 20 support ends soon', { type: 'NodeVersionSupportWarning', code: 'X1' });`;
      const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { encoding: 'utf8' });
      expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
      const lines = readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([
        expect.objectContaining({ level: 'warn', msg: 'Node 20 support ends soon', context: 'Process', warning: { name: 'NodeVersionSupportWarning', code: 'X1' } }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
