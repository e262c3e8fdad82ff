import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/** scripts/check-node.cjs as npm start runs it, on this Node with `process.versions.node` set to `version`. */
function checkNodeAs(version: string) {
  const code = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } }); require('./scripts/check-node.cjs')`;
  return spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
}

/** A function of scripts/machine.sh run by bash, as root is not: `_dropline_root` answers nothing (no root, no sudo). */
function machineWithoutRoot(call: string) {
  return spawnSync('bash', ['-c', `source scripts/machine.sh; _dropline_root() { :; }; ${call}`], { cwd: ROOT, encoding: 'utf8' });
}

/**
 * The pieces of `bash scripts/up.sh` that can run on any machine: the Node check that npm start,
 * the worker and the admin CLI run first, and scripts/machine.sh (shared with .ci/run) saying in
 * one line what is missing and the command that provides it when it may not install.
 */
describe('one command on a bare machine', () => {
  it('an old Node gets one line naming what to run, and nothing starts', () => {
    const old = checkNodeAs('20.20.2');
    expect(old.status).toBe(1);
    expect(old.stdout).toBe('');
    expect(old.stderr).toBe('Dropline needs Node ≥ 22.19 (26 recommended): run `source scripts/node26.sh` (this is Node 20.20.2)\n');
    expect(checkNodeAs('22.18.0').status).toBe(1);
  });

  it('a supported Node passes silently', () => {
    for (const version of ['22.19.0', '24.1.0', process.versions.node]) expect({ version, ...pick(checkNodeAs(version)) }).toEqual({ version, status: 0, stdout: '', stderr: '' });
  });

  it('npm start, the worker and the admin CLI check the Node first', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['prestart', 'prestart:worker', 'admin', 'start:dev']) expect(scripts[name]).toMatch(/^node scripts\/check-node\.cjs && /);
    expect(scripts.up).toBe('bash scripts/up.sh');
  });

  it('without root, a missing program is one line with the command that provides it', () => {
    const missing = machineWithoutRoot('dropline_packages sh:coreutils dropline-no-such-program:dropline-some-package');
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('Dropline needs dropline-some-package: run `sudo apt-get install -y dropline-some-package`\n');
  });

  it('with every program there, nothing is said or installed', () => {
    expect(pick(machineWithoutRoot('dropline_packages sh:coreutils bash:bash'))).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('scripts/up.sh and .ci/run share those steps', () => {
    for (const file of ['scripts/up.sh', '.ci/run']) expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/^source scripts\/machine\.sh/m);
  });
});

function pick(r: { status: number | null; stdout: string; stderr: string }) {
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
