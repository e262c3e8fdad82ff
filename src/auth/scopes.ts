import { ApiError } from '../common/api-error';

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

/** Refuses (403 insufficient_scope) a key without the scope an operation or a tool needs. */
export function assertScope(granted: readonly string[], needed: string): void {
  if (!granted.includes(needed)) {
    throw ApiError.forbidden('insufficient_scope', `This operation needs the ${needed} scope.`);
  }
}
