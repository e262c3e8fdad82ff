import { ApiError } from './api-error';

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

export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (!cursor) return undefined;
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso);
  if (!id || Number.isNaN(createdAt.getTime())) {
    throw ApiError.validation('The cursor is not valid.', [{ path: 'query/cursor', message: 'not a cursor issued by this API' }]);
  }
  return { createdAt, id };
}

/** Given limit+1 rows, returns the page and the cursor for the next one. */
export function paginate<T extends CursorPosition>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(items[items.length - 1]) : null;
  return { items, nextCursor };
}
