import { ApiError } from '../common/api-error';
import type { DropKind } from './drop.entity';

/** docs/decisions.md §5: the conversion targets of each kind. */
export const CONVERT_TARGETS: Record<Exclude<DropKind, 'any'>, readonly string[]> = {
  image: ['jpeg', 'png', 'webp', 'avif'],
  video: ['mp4', 'webm'],
  audio: ['mp3', 'aac', 'opus', 'wav'],
  document: ['pdf'],
};

export function kindOfTarget(format: string): keyof typeof CONVERT_TARGETS | undefined {
  return (Object.keys(CONVERT_TARGETS) as (keyof typeof CONVERT_TARGETS)[]).find((k) => CONVERT_TARGETS[k].includes(format));
}

/** The rules that need more than one field or the plan, so the contract's schemas cannot state them. */
export function checkDropRules(
  drop: {
    allowedKinds: DropKind;
    autoConvertTo: string | null;
    maxFileSizeMB: number;
    expiresAt: Date | null;
    acceptLateUntil?: Date | null;
  },
  planLimitMB: number,
  expiresAtChanged: boolean,
  now: Date,
): void {
  if (drop.maxFileSizeMB > planLimitMB) {
    throw ApiError.validation(`maxFileSizeMB must be between 1 and ${planLimitMB}, the plan's upload limit.`, [
      { path: 'body/maxFileSizeMB', message: `must be <= ${planLimitMB}` },
    ]);
  }
  if (drop.autoConvertTo) {
    const kind = kindOfTarget(drop.autoConvertTo);
    if (drop.allowedKinds !== 'any' && drop.allowedKinds !== kind) {
      throw ApiError.validation(`autoConvertTo ${drop.autoConvertTo} is a ${kind} format, but the drop accepts only ${drop.allowedKinds} files.`, [
        { path: 'body/autoConvertTo', message: `must be a format of kind ${drop.allowedKinds}` },
      ]);
    }
  }
  if (expiresAtChanged && drop.expiresAt && drop.expiresAt.getTime() <= now.getTime()) {
    throw ApiError.validation('expiresAt must be in the future.', [{ path: 'body/expiresAt', message: 'must be in the future' }]);
  }
  if (drop.acceptLateUntil && (!drop.expiresAt || drop.acceptLateUntil.getTime() <= drop.expiresAt.getTime())) {
    throw ApiError.validation('acceptLateUntil is a grace period after expiresAt: set expiresAt, and acceptLateUntil after it.', [
      { path: 'body/acceptLateUntil', message: 'must be after expiresAt' },
    ]);
  }
}
