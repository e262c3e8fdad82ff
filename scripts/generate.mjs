// Generates TypeScript types and the API client from openapi.yaml into generated/.
// openapi-typescript + openapi-fetch are pure Node (no JAR, no network), see README.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'generated');
const specText = readFileSync(join(root, 'openapi.yaml'), 'utf8');
const spec = parse(specText);
const header = '// GENERATED from openapi.yaml by `npm run generate`. Do not edit.\n';

mkdirSync(out, { recursive: true });

// defaultNonNullable off: an option with a default (quality, format) is still optional to send.
const ast = await openapiTS(spec, { alphabetize: false, exportType: true, defaultNonNullable: false });
writeFileSync(join(out, 'schema.ts'), header + astToString(ast));

// Named aliases for every component schema, so code imports `Drop` rather than components['schemas']['Drop'].
const schemaNames = Object.keys(spec.components.schemas);
const aliases = schemaNames.map((n) => `export type ${n} = components['schemas']['${n}'];`).join('\n');

// The operation table: id, method, path, scope and whether it is public.
const methods = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'];
const operations = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of methods) {
    const op = item[method];
    if (!op) continue;
    operations.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      scope: op['x-required-scope'] ?? null,
      public: Array.isArray(op.security) && op.security.length === 0,
    });
  }
}
const opIds = operations.map((o) => `'${o.operationId}'`).join(' | ');
writeFileSync(
  join(out, 'types.ts'),
  `${header}import type { components, operations } from './schema';\n\n${aliases}\n\n` +
    `export type OperationId = ${opIds};\n\n` +
    `export interface OperationInfo {\n  operationId: OperationId;\n  method: string;\n  path: string;\n  scope: string | null;\n  public: boolean;\n}\n\n` +
    `export const OPERATIONS: readonly OperationInfo[] = ${JSON.stringify(operations, null, 2)};\n\n` +
    `export type { components, operations };\n`,
);

writeFileSync(
  join(out, 'client.ts'),
  `${header}import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths };
export type DroplineClient = Client<paths>;

export interface DroplineClientOptions {
  /** Base URL of the service, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** An API key (dl_live_…); omit for public operations. */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

/** A typed client for every operation of openapi.yaml. */
export function createDroplineClient(options: DroplineClientOptions): DroplineClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.token ? { Authorization: \`Bearer \${options.token}\` } : {},
    fetch: options.fetch,
  });
}
`,
);

writeFileSync(join(out, 'index.ts'), `${header}export * from './types';\nexport * from './client';\n`);
console.error(`generated/: ${schemaNames.length} schemas, ${operations.length} operations`);
