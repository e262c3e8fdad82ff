import type { ErrorCode } from '../../generated/types';

/** Asserts the error envelope of docs/decisions.md §4: status, code, a message, optional details, no stack trace. */
export function expectError(res: { status: number }, body: unknown, status: number, code: ErrorCode): void {
  expect(res.status).toBe(status);
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
  const keys = Object.keys((body as { error: object }).error).sort();
  expect(keys.filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+|node_modules/);
}
