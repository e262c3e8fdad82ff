import { DomainError } from '../common/domain-error';
import { takesKind, type ToolDefinition } from '../tools/tool-definition';
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
    autoCompress: boolean;
    processWith?: string | null;
    maxFileSizeMB: number;
    expiresAt: Date | null;
    acceptLateUntil?: Date | null;
  },
  planLimitMB: number,
  expiresAtChanged: boolean,
  now: Date,
): void {
  if (drop.maxFileSizeMB > planLimitMB) {
    throw DomainError.validation(`maxFileSizeMB must be between 1 and ${planLimitMB}, the plan's upload limit.`, [
      { path: 'body/maxFileSizeMB', message: `must be <= ${planLimitMB}` },
    ]);
  }
  if (drop.autoConvertTo) {
    const kind = kindOfTarget(drop.autoConvertTo);
    if (drop.allowedKinds !== 'any' && drop.allowedKinds !== kind) {
      throw DomainError.validation(`autoConvertTo ${drop.autoConvertTo} is a ${kind} format, but the drop accepts only ${drop.allowedKinds} files.`, [
        { path: 'body/autoConvertTo', message: `must be a format of kind ${drop.allowedKinds}` },
      ]);
    }
  }
  if (drop.processWith && (drop.autoConvertTo || drop.autoCompress)) {
    const other = drop.autoConvertTo ? 'autoConvertTo' : 'autoCompress';
    throw DomainError.validation(`processWith runs a template; ${other} is a one-step recipe of its own: set one or the other, not both.`, [
      { path: 'body/processWith', message: `cannot be combined with ${other}` },
    ]);
  }
  if (expiresAtChanged && drop.expiresAt && drop.expiresAt.getTime() <= now.getTime()) {
    throw DomainError.validation('expiresAt must be in the future.', [{ path: 'body/expiresAt', message: 'must be in the future' }]);
  }
  if (drop.acceptLateUntil && (!drop.expiresAt || drop.acceptLateUntil.getTime() <= drop.expiresAt.getTime())) {
    throw DomainError.validation('acceptLateUntil is a grace period after expiresAt: set expiresAt, and acceptLateUntil after it.', [
      { path: 'body/acceptLateUntil', message: 'must be after expiresAt' },
    ]);
  }
}

/** A step of a template as far as the arriving file is concerned: its tool and what it reads (null: the arriving file). */
export interface StepReading {
  name: string;
  tool: Pick<ToolDefinition, 'slug' | 'kind'>;
  input: string | null;
}

/** The first step reading the arriving file whose tool does not take files of `kind`; undefined when every one does. */
export function stepRefusingKind(steps: readonly StepReading[], kind: string): StepReading | undefined {
  return steps.find((s) => s.input === null && !takesKind(s.tool.kind, kind));
}

/** 400 when the drop takes files of one kind only and a step of its template reading them takes another kind. */
export function checkTemplateKinds(allowedKinds: DropKind, steps: readonly StepReading[]): void {
  if (allowedKinds === 'any') return;
  const step = stepRefusingKind(steps, allowedKinds);
  if (step) {
    throw DomainError.validation(
      `processWith: the template's step "${step.name}" (${step.tool.slug}) takes ${step.tool.kind} files, but the drop accepts only ${allowedKinds} files.`,
      [{ path: 'body/processWith', message: `must name a template whose steps take ${allowedKinds} files` }],
    );
  }
}
