import { DomainError } from '../common/domain-error';

/** docs/decisions.md §2. */
export const SCOPES = [
  'drops:read',
  'drops:write',
  'image:write',
  'video:write',
  'audio:write',
  'documents:write',
  'uploads:write',
  'webhooks:read',
  'webhooks:write',
  'templates:read',
  'templates:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Refuses (403 insufficient_scope) a key without the scope an operation or a tool needs; with several, any one suffices. */
export function assertScope(granted: readonly string[], needed: string | readonly string[]): void {
  const anyOf = typeof needed === 'string' ? [needed] : needed;
  if (!anyOf.some((scope) => granted.includes(scope))) {
    const what = anyOf.length === 1 ? `the ${anyOf[0]} scope` : `one of the scopes ${anyOf.join(', ')}`;
    throw new DomainError('insufficient_scope', `This operation needs ${what}.`);
  }
}
