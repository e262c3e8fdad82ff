import type { INestApplication } from '@nestjs/common';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** Where /docs fetches the document it renders (served below, by @nestjs/swagger). */
export const DOCS_DOCUMENT_PATH = '/docs/openapi.json';

/**
 * /docs: Swagger UI over `document` (the hand-written contract, see docsDocument), never a spec
 * built from decorators.
 *
 * The UI fetches the document from DOCS_DOCUMENT_PATH instead of having it inlined in
 * swagger-ui-init.js: @nestjs/swagger inlines it with String.prototype.replace, which reads
 * "$`", "$&", "$'" in the contract's own text (a regex in a description ending in `$`) as
 * replacement patterns and breaks the script, leaving a blank page. Loaded by URL, no text of the
 * contract reaches the script.
 */
export function serveDocs(app: INestApplication, document: Record<string, unknown>): void {
  // The document as JSON and YAML, and no UI.
  SwaggerModule.setup('docs', app, document as unknown as OpenAPIObject, {
    ui: false,
    raw: ['json', 'yaml'],
    jsonDocumentUrl: DOCS_DOCUMENT_PATH.slice(1),
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  // The UI, given an empty inline document: Swagger UI then loads `swaggerUrl` instead.
  SwaggerModule.setup('docs', app, {} as OpenAPIObject, {
    raw: false,
    swaggerUrl: DOCS_DOCUMENT_PATH,
    customSiteTitle: 'Dropline API',
    // Operation ids are the names the contract and the generated client's types use.
    swaggerOptions: { displayOperationId: true },
  });
}
