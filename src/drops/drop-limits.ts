import { DomainError } from '../common/domain-error';
import { MB } from '../config/plans';
import type { Drop } from './drop.entity';

/** Spellings of one type (file-type's extension first): a drop allowing `jpg` takes `photo.jpeg`. */
const SAME_TYPE: string[][] = [
  ['jpg', 'jpeg', 'jpe', 'jfif'],
  ['tif', 'tiff'],
  ['mp4', 'm4v'],
  ['m4a', 'm4b'],
  ['mpg', 'mpeg'],
  ['heic', 'heif'],
  ['htm', 'html'],
];

function spellings(ext: string): string[] {
  return SAME_TYPE.find((group) => group.includes(ext)) ?? [ext];
}

function allows(allowed: readonly string[], ext: string): boolean {
  return spellings(ext).some((e) => allowed.includes(e));
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * 415 `kind_not_allowed` unless the file's name ends in an allowed extension and — once the bytes
 * are known — their sniffed type is one too: `setup.exe` renamed `invoice.pdf` is refused. Bytes
 * of no recognisable type (plain text) are judged by the name alone.
 */
export function checkExtension(drop: Pick<Drop, 'allowedExtensions'>, fileName: string | undefined, sniffed?: { ext?: string; mime: string }): void {
  const allowed = drop.allowedExtensions;
  if (!allowed || allowed.length === 0) return;
  const named = fileName === undefined ? undefined : extensionOf(fileName);
  const refused = (named !== undefined && !allows(allowed, named)) || (sniffed?.ext !== undefined && !allows(allowed, sniffed.ext));
  if (!refused) return;
  const list = allowed.map((e) => `.${e}`).join(', ');
  const what = [fileName, sniffed ? `(${sniffed.mime})` : undefined].filter(Boolean).join(' ');
  throw new DomainError('kind_not_allowed', `This drop accepts only files ending in ${list}; this file is ${what || 'of another type'}.`);
}

/** Past `expiresAt` but within `acceptLateUntil`: accepted, flagged late. */
export function isLateAt(drop: Pick<Drop, 'expiresAt'>, now: Date): boolean {
  return drop.expiresAt !== null && drop.expiresAt.getTime() <= now.getTime();
}

/** Whether a drop past its deadline still takes files (its grace period has not ended). */
export function isClosedAt(drop: Pick<Drop, 'expiresAt' | 'acceptLateUntil'>, now: Date): boolean {
  if (!isLateAt(drop, now)) return false;
  return !drop.acceptLateUntil || drop.acceptLateUntil.getTime() <= now.getTime();
}

export function dropFull(drop: Pick<Drop, 'maxSubmissions' | 'maxTotalMB'>, why: 'count' | 'size'): DomainError {
  const message =
    why === 'count' ? `This drop has reached its limit of ${drop.maxSubmissions} files.` : `This file would take the drop past its limit of ${drop.maxTotalMB} MB in all.`;
  return new DomainError('drop_full', message);
}

/** 409 `drop_full` when the drop has its count, or `bytes` more (when known) would not fit; the final word is the counter UPDATE's. */
export function checkRoom(drop: Pick<Drop, 'maxSubmissions' | 'maxTotalMB' | 'submissionCount' | 'totalBytes'>, bytes?: number): void {
  if (drop.maxSubmissions !== null && drop.submissionCount >= drop.maxSubmissions) throw dropFull(drop, 'count');
  if (drop.maxTotalMB !== null && drop.totalBytes + (bytes ?? 1) > drop.maxTotalMB * MB) throw dropFull(drop, 'size');
}

/** Bytes the drop still has room for (Infinity without `maxTotalMB`). */
export function roomLeft(drop: Pick<Drop, 'maxTotalMB' | 'totalBytes'>): number {
  return drop.maxTotalMB === null ? Infinity : Math.max(0, drop.maxTotalMB * MB - drop.totalBytes);
}
