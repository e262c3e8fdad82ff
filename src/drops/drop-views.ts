import type { Drop as DropView, PublicDrop } from '../../generated/types';
import { isClosedAt } from './drop-limits';
import type { Drop } from './drop.entity';

/** The settings every reader of a drop sees: its owner through the API, its senders on the page and the public API. */
function dropSettings(drop: Readonly<Drop>) {
  return {
    slug: drop.slug,
    name: drop.name,
    description: drop.description,
    emoji: drop.emoji,
    accentColor: drop.accentColor,
    allowedKinds: drop.allowedKinds,
    maxFileSizeMB: drop.maxFileSizeMB,
    requireSenderEmail: drop.requireSenderEmail,
    requireMessage: drop.requireMessage,
    expiresAt: drop.expiresAt ? drop.expiresAt.toISOString() : null,
    acceptLateUntil: drop.acceptLateUntil ? drop.acceptLateUntil.toISOString() : null,
    maxSubmissions: drop.maxSubmissions,
    maxTotalMB: drop.maxTotalMB,
    allowedExtensions: drop.allowedExtensions,
  };
}

/** The owner's view (`/v1/drops`): the settings, the processing, the counters and the page's address. */
export function toOwnerDropView(drop: Readonly<Drop>, baseUrl: string): DropView {
  return {
    ...dropSettings(drop),
    isActive: drop.isActive,
    autoConvertTo: drop.autoConvertTo,
    autoCompress: drop.autoCompress,
    processWith: drop.processWith,
    webhookUrl: drop.webhookUrl,
    hasPassword: drop.passwordHash !== null,
    submissionCount: drop.submissionCount,
    totalBytes: drop.totalBytes,
    publicUrl: `${baseUrl}/d/${drop.slug}`,
    createdAt: drop.createdAt.toISOString(),
  };
}

/** The senders' view (`/v1/public/drops/{slug}` and the drop page): the settings, and whether it takes files at `now`. */
export function toPublicDropView(drop: Readonly<Drop>, now: Date): PublicDrop {
  const expired = isClosedAt(drop, now);
  const full = (drop.maxSubmissions !== null && drop.submissionCount >= drop.maxSubmissions) || (drop.maxTotalMB !== null && drop.totalBytes >= drop.maxTotalMB * 1024 * 1024);
  return {
    ...dropSettings(drop),
    acceptingSubmissions: drop.isActive && !expired && !full,
    requiresPassword: drop.passwordHash !== null,
  };
}
