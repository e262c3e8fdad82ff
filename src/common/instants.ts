/** An instant Postgres' timestamptz and JavaScript's Date both represent: years 1970-9999. */
export function isStorableInstant(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1970 && year <= 9999;
}
