import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** In a process of its own: jest gives each test file a copy of process.env, which process.loadEnvFile does not write. */
function envAfterReading(file: string, env: Record<string, string>): Record<string, string | undefined> {
  const code = `require('./src/config/env-file').readEnvFile(${JSON.stringify(file)}); console.log(JSON.stringify({ only: process.env.ONLY_IN_FILE, both: process.env.IN_BOTH }))`;
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', code], {
    cwd: resolve(__dirname, '../..'),
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Record<string, string | undefined>;
}

describe('readEnvFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dropline-env-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds the variables of the file, leaving those already set as they are', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'ONLY_IN_FILE=from-file\nIN_BOTH=from-file\n');
    expect(envAfterReading(file, { IN_BOTH: 'from-environment' })).toEqual({ only: 'from-file', both: 'from-environment' });
  });

  it('does nothing without a file', () => {
    expect(envAfterReading(join(dir, 'absent.env'), {})).toEqual({});
  });
});
