import { spawn } from 'node:child_process';
import type { Deadline } from './deadline';
import { MediaError } from './media.errors';

export interface ProcessGroupOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  deadline: Deadline;
  /** Names the program in the message when it is not installed (`LibreOffice`). */
  name: string;
}

export interface ProcessGroupResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Output kept per stream: enough for a page count or an error tail, never a whole dump. */
const KEEP_BYTES = 64 * 1024;

/**
 * Runs a program in its own process group (spawned detached) and, past the deadline or once the run
 * stops, SIGKILLs the whole group: LibreOffice's `soffice` is a launcher whose `soffice.bin` child would outlive a kill
 * of the launcher alone. Resolves once every stream of the group is closed, so nothing it started is
 * still writing into the work directory when the caller removes it.
 */
export function runProcessGroup(file: string, args: string[], opts: ProcessGroupOptions): Promise<ProcessGroupResult> {
  opts.deadline.require();
  return new Promise((done, fail) => {
    const child = spawn(file, args, { env: opts.env, cwd: opts.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout + chunk.toString('utf8'))));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr + chunk.toString('utf8'))));
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const unwatch = opts.deadline.watch(() => {
      timedOut = true;
      killGroup();
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      unwatch();
      if (err.code === 'ENOENT') return fail(new MediaError('processing_failed', `${opts.name} is not available on this server.`, err.message));
      fail(new MediaError('processing_failed', `${opts.name} could not be started.`, err.message));
    });
    child.on('close', (code) => {
      unwatch();
      // The launcher may exit while a child of its group still runs: none may survive the operation.
      killGroup();
      if (timedOut) {
        const err = opts.deadline.error();
        return fail(new MediaError(err.code, err.message, stderr));
      }
      done({ code, stdout, stderr });
    });
  });
}

function keep(text: string): string {
  return text.length > KEEP_BYTES ? text.slice(-KEEP_BYTES) : text;
}
