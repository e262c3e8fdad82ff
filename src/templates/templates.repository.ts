import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CursorPosition } from '../common/cursor';
import { firstRow, rows } from '../database/sql';
import type { Template } from './template.entity';

const COLUMNS = `id, account_id AS "accountId", name, steps, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The templates table: an account's saved pipelines. */
@Injectable()
export class TemplatesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(template: Pick<Template, 'id' | 'accountId' | 'name' | 'steps'>): Promise<Template> {
    return (await firstRow<Template>(this.db, `INSERT INTO templates (id, account_id, name, steps) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [
      template.id,
      template.accountId,
      template.name,
      JSON.stringify(template.steps),
    ]))!;
  }

  /** The account's template; another account's is not found. */
  findForAccount(id: string, accountId: string): Promise<Template | undefined> {
    return firstRow<Template>(this.db, `SELECT ${COLUMNS} FROM templates WHERE id = $1 AND account_id = $2`, [id, accountId]);
  }

  listForAccount(accountId: string, take: number, after?: CursorPosition): Promise<Template[]> {
    return rows<Template>(
      this.db,
      `SELECT ${COLUMNS} FROM templates WHERE account_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::text))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [accountId, after?.createdAt ?? null, after?.id ?? null, take],
    );
  }

  /** Changes name and/or steps of the account's template; undefined when it is not the account's. */
  update(id: string, accountId: string, changes: Partial<Pick<Template, 'name' | 'steps'>>): Promise<Template | undefined> {
    return firstRow<Template>(
      this.db,
      `UPDATE templates SET name = COALESCE($3, name), steps = COALESCE($4::json, steps), updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, changes.name ?? null, changes.steps ? JSON.stringify(changes.steps) : null],
    );
  }

  /** True when the account's template was there to delete. */
  async delete(id: string, accountId: string): Promise<boolean> {
    return (await rows(this.db, 'DELETE FROM templates WHERE id = $1 AND account_id = $2 RETURNING id', [id, accountId])).length > 0;
  }
}
