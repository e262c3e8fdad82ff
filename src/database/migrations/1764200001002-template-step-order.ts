import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A template's steps keep the order the client wrote them in: `jsonb` stores an object's keys
 * sorted (shortest first), `json` stores the text as given. A template job's steps, its
 * `result.outputs` and a drop's submission outputs follow that order.
 */
export class TemplateStepOrder1764200001002 implements MigrationInterface {
  name = 'TemplateStepOrder1764200001002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE templates ALTER COLUMN steps TYPE json USING steps::json');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE templates ALTER COLUMN steps TYPE jsonb USING steps::jsonb');
  }
}
