import { isStorableInstant } from './instants';
import { DomainError } from './domain-error';

/** The ids this service issues (see ids.ts): a prefix and an underscore, then URL-safe characters. */
const ID = /^[a-z]+_[A-Za-z0-9_-]{1,64}$/;
/** Serial ids (the credit ledger's bigint). */
export const SERIAL_ID = /^[0-9]{1,18}$/;

/**
 * Keyset cursors: the (createdAt, id) of the last row of a page, base64url-encoded.
 * Opaque to clients; a tampered one is a 400, never a 500.
 */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: CursorPosition): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, idPattern: RegExp = ID): CursorPosition | undefined {
  if (!cursor) return undefined;
  const [iso, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso);
  // Only what encodeCursor writes is a cursor: a forged one decoding to an instant Postgres cannot
  // hold (year -271821) or an id with odd bytes would reach the query and fail there (500).
  const issued = rest.length === 0 && idPattern.test(id ?? '') && !Number.isNaN(createdAt.getTime()) && createdAt.toISOString() === iso;
  if (!issued || !isStorableInstant(createdAt)) {
    throw DomainError.validation('The cursor is not valid.', [{ path: 'query/cursor', message: 'not a cursor issued by this API' }]);
  }
  return { createdAt, id };
}

/** Given limit+1 rows, returns the page and the cursor for the next one. */
export function paginate<T extends CursorPosition>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(items[items.length - 1]) : null;
  return { items, nextCursor };
}
