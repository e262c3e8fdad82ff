/** docs/decisions.md §2. */
export const SCOPES = ['drops:read', 'drops:write', 'image:write', 'video:write', 'audio:write', 'uploads:write', 'webhooks:read', 'webhooks:write'] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
