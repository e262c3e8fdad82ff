import { DomainError } from '../common/domain-error';
import type { Submission } from './submission.entity';

/**
 * Whether the owner may have a submission's file now: infected files are quarantined (403, always);
 * files not scanned yet wait (409 `scan_pending`, Retry-After) unless SCAN_MODE=advisory. A scan
 * that `failed` (clamd could not judge the file) does not hold it back: the owner sees the status.
 */
export function checkDownloadable(s: Pick<Submission, 'scanStatus' | 'scanSignature'>, mode: 'strict' | 'advisory', retrySeconds: number): void {
  if (s.scanStatus === 'infected') {
    throw new DomainError('quarantined', `This file is quarantined: the malware scan found ${s.scanSignature ?? 'malware'}. It can only be deleted.`);
  }
  if (s.scanStatus === 'pending' && mode === 'strict') {
    throw new DomainError('scan_pending', `This file has not been scanned for malware yet; retry in ${retrySeconds} s.`, { retryAfterSeconds: retrySeconds });
  }
}

/** The archive leaves out what a download would refuse. */
export function inArchive(s: Pick<Submission, 'scanStatus'>, mode: 'strict' | 'advisory'): boolean {
  return s.scanStatus !== 'infected' && !(s.scanStatus === 'pending' && mode === 'strict');
}
