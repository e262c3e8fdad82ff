import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, getMetadataArgsStorage } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { TEST_DATABASE_URL } from '../support/env';

const SRC = join(__dirname, '../../src');

/** Every `src/**\/*.entity.ts`, so an entity added later is checked without touching this file. */
function entityFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.entity.ts')).map((f) => join(SRC, f));
}

/**
 * The entities are the typed description of the tables the repositories query with SQL
 * (docs/adr/0005-raw-sql-repositories.md); the migrations are the truth. TypeORM's schema builder
 * compares the two on the migrated test database: any statement it would run is a drift.
 */
describe('entities match the migrated schema', () => {
  let ds: DataSource;

  beforeAll(async () => {
    for (const file of entityFiles()) await import(file);
    const entities = getMetadataArgsStorage().tables.map((t) => t.target);
    ds = new DataSource({ ...dataSourceOptions(TEST_DATABASE_URL), entities });
    await ds.initialize();
  });
  afterAll(() => ds?.destroy());

  it('finds the entities', () => {
    expect(ds.entityMetadatas.map((m) => m.tableName).sort()).toEqual([
      'accounts',
      'api_keys',
      'drop_events',
      'drops',
      'jobs',
      'submission_outputs',
      'submissions',
      'templates',
      'uploads',
      'webhook_deliveries',
    ]);
  });

  it('the schema builder would change nothing', async () => {
    const log = await ds.driver.createSchemaBuilder().log();
    expect(log.upQueries.map((q) => q.query)).toEqual([]);
  });
});
