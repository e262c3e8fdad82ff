import type { EntityManager } from 'typeorm';

/** Either the pool (DataSource.manager) or an open transaction: repositories accept both. */
export type Db = Pick<EntityManager, 'query'>;

/**
 * Rows of a parameterised statement. TypeORM's pg driver answers UPDATE and DELETE with
 * `[rows, affected]` and everything else with the rows; this hides the difference.
 */
export async function rows<T>(db: Db, sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await db.query(sql, params);
  return Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result;
}

export async function firstRow<T>(db: Db, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await rows<T>(db, sql, params))[0];
}
