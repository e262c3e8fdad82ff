import { randomBytes } from 'node:crypto';
import { lstat, mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MediaError } from './media.errors';
import type { ProgressCallback } from './media.types';

/** What every media adapter shares: the input check, the output's name, progress and error details. */

/** The input's absolute path; a missing input is a server-side failure, an empty one the sender's. */
export async function checkInput(path: string): Promise<string> {
  const abs = resolve(path);
  const st = await stat(abs).catch(() => undefined);
  if (!st?.isFile()) throw new MediaError('processing_failed', 'The input file does not exist.');
  if (st.size === 0) throw new MediaError('unsupported_input', 'The file is empty.');
  return abs;
}

/** `output.<ext>` unless that name is taken (or is the input itself); then `output-<random>.<ext>`. */
export async function outputPath(outDir: string, ext: string, inputAbs: string): Promise<string> {
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const plain = join(dir, `output.${ext}`);
  const taken =
    plain === inputAbs ||
    (await lstat(plain).then(
      () => true,
      () => false,
    ));
  return taken ? join(dir, `output-${randomBytes(4).toString('hex')}.${ext}`) : plain;
}

export async function isFile(path: string): Promise<boolean> {
  const st = await stat(path).catch(() => undefined);
  return Boolean(st?.isFile() && st.size > 0);
}

export function truncated(kind: 'video' | 'audio', detail: string): MediaError {
  return new MediaError('unsupported_input', `The ${kind} file is truncated or corrupt.`, detail);
}

export function withDetail(err: MediaError, detail: string): MediaError {
  return new MediaError(err.code, err.message, detail);
}

export function safeProgress(onProgress: ProgressCallback | undefined, percent: number): void {
  try {
    onProgress?.(percent);
  } catch {
    // a failing progress listener must not break the transcode
  }
}

export function tail(text: string): string {
  return text.split('\n').filter(Boolean).slice(-20).join('\n');
}

export function capitalise(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
