import type { PublicSubmission, Submission as SubmissionView } from '../../generated/types';
import type { Submission } from './submission.entity';

export function toSubmissionView(s: Submission): SubmissionView {
  return {
    id: s.id,
    dropId: s.dropId,
    senderName: s.senderName,
    senderEmail: s.senderEmail,
    message: s.message,
    fileName: s.fileName,
    fileSize: s.fileSize,
    fileMime: s.fileMime,
    fileKind: s.fileKind,
    status: s.status,
    processedFileName: s.processedFileName,
    processingError: s.processingError ?? null,
    outputs: (s.outputs ?? []).map(({ name, fileName, size, contentType }) => ({ name, fileName, size, contentType })),
    isRead: s.isRead,
    isStarred: s.isStarred,
    isArchived: s.isArchived,
    isLate: s.isLate,
    scan: {
      status: s.scanStatus,
      ...(s.scanSignature ? { signature: s.scanSignature } : {}),
      ...(s.scannedAt ? { scannedAt: s.scannedAt.toISOString() } : {}),
    },
    createdAt: s.createdAt.toISOString(),
  };
}

/** What a sender gets back: nothing about the drop owner or other senders. */
export function toPublicSubmissionView(s: Submission): PublicSubmission {
  return { id: s.id, fileName: s.fileName, fileSize: s.fileSize, fileKind: s.fileKind, status: s.status, createdAt: s.createdAt.toISOString() };
}
