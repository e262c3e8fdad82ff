import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The EICAR anti-virus test file: harmless, detected by every scanner (here by our own signature). */
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');
/** Bytes our custom test signature (Dropline.Test.Custom) matches anywhere in a file. */
export const CUSTOM_MALWARE_MARKER = 'DROPLINE-TEST-MALWARE';

export interface TestClamd {
  socket: string;
  /** Stops clamd (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same socket; resolves once it answers PING with PONG. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

const CLAMD = process.env.CLAMD_BIN ?? '/usr/sbin/clamd';

/**
 * A private clamd for one suite: a signature database made here, offline, with `sigtool` (EICAR and
 * a custom body signature — no download of the public database), its own config and unix socket in
 * a temp dir. Ready when its socket answers PONG (polled; clamd with this database starts in well
 * under a second).
 */
export async function startClamd(): Promise<TestClamd> {
  const dir = await mkdtemp(join(tmpdir(), 'dropline-clamd-'));
  const db = join(dir, 'db');
  execFileSync('mkdir', ['-p', db]);
  const hex = (text: string | Buffer) => execFileSync('sigtool', ['--hex-dump'], { input: text }).toString().trim();
  await writeFile(join(db, 'dropline-test.ndb'), `Eicar-Test-Signature:0:*:${hex(EICAR)}\nDropline.Test.Custom:0:*:${hex(CUSTOM_MALWARE_MARKER)}\n`);
  const socket = join(dir, 'clamd.sock');
  const config = join(dir, 'clamd.conf');
  await writeFile(config, [`Foreground yes`, `LocalSocket ${socket}`, `DatabaseDirectory ${db}`, `LogFile ${join(dir, 'clamd.log')}`, 'StreamMaxLength 100M', ''].join('\n'));
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child && child.exitCode === null) return; // running already
    child = spawn(CLAMD, ['-c', config], { stdio: 'ignore' });
    const started = child;
    const exited = new Promise<never>((_, reject) => started.once('exit', (code) => reject(new Error(`clamd exited (${code}); see ${dir}/clamd.log`))));
    exited.catch(() => undefined);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (await pong(socket)) return;
      if (started.exitCode !== null) await exited;
      if (Date.now() > deadline) throw new Error('clamd did not answer PING within 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    await gone;
  };
  await start();
  return {
    socket,
    start,
    stop,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** clamd's PING: true when it answered PONG. */
export function pong(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = createConnection(socket);
    let answer = '';
    conn.setTimeout(1000, () => conn.destroy());
    conn.on('connect', () => conn.write('zPING\0'));
    conn.on('data', (d) => (answer += d.toString()));
    conn.on('error', () => resolve(false));
    conn.on('close', () => resolve(answer.startsWith('PONG')));
  });
}
