import type { Drop } from '../../src/drops/drop.entity';

/** Everything of a drop but who owns it, what it is called and when it was made. */
export type DropSettings = Omit<Drop, 'id' | 'accountId' | 'slug' | 'name' | 'createdAt'>;

/** What a drop made with a name only holds (docs/decisions.md §5), with the free plan's 25 MB size limit. */
export const NEW_DROP_SETTINGS: DropSettings = {
  description: '',
  emoji: null,
  accentColor: null,
  isActive: true,
  allowedKinds: 'any',
  maxFileSizeMB: 25,
  requireSenderEmail: false,
  requireMessage: false,
  autoConvertTo: null,
  autoCompress: false,
  processWith: null,
  webhookUrl: null,
  expiresAt: null,
  passwordHash: null,
  maxSubmissions: null,
  maxTotalMB: null,
  allowedExtensions: null,
  acceptLateUntil: null,
  submissionCount: 0,
  totalBytes: 0,
};
