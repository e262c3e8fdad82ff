// Module boundaries, checked by `npm run lint` (docs/module-boundaries.md explains the layers).
// dependency-cruiser reads the TypeScript imports of src/, type-only imports included: a type
// import is a dependency of the design even when the compiler erases it.

/** Domain folders: the features the API offers. Infrastructure (database, common, config, …) sits below them. */
const DOMAINS = '(account-api|accounts|auth|credits|drops|jobs|media|submissions|templates|tools|uploads|webhooks|worker)';

/**
 * A domain's HTTP edge: controllers, guards, filters, param decorators, presenters and Nest module
 * files, plus the few auth files that exist to speak HTTP (the reply hooks of rate limiting, the
 * request's typing). Everything else in a domain folder is its core.
 */
const HTTP_EDGE = ['\\.(controller|guard|filter|decorator|presenter|module)\\.ts$', '^src/auth/(deferred-rate-limit|auth-context)\\.ts$'];

/** What the core may not import: Fastify, Nest's Fastify adapter, and our HTTP layer. */
const HTTP_LAYER = [
  '^src/app\\.factory\\.ts$',
  '^src/main\\.ts$',
  '\\.(controller|guard|filter|presenter)\\.ts$',
  '^src/common/(all-errors\\.filter|error-response|json-body|lingering-close|multipart|multipart-errors)\\.ts$',
  '^src/contract/(operation-binding|operation-binding\\.module|request-validation\\.guard)\\.ts$',
  '^src/tus/',
  '^src/drop-page/',
];
const HTTP_PACKAGES = '^node_modules/(fastify|@nestjs/platform-fastify|@fastify/[^/]+)/';

/**
 * Errors with an HTTP status: ApiError (a status spelled out) and the table of each code's status.
 * The core throws DomainError (common/domain-error.ts) and leaves the status to the edge.
 * (`HttpStatus` comes from @nestjs/common, which the core imports for DI: ESLint's
 * no-restricted-imports keeps that one name out, see eslint.config.mjs.)
 */
const HTTP_ERRORS = ['^src/common/api-error\\.ts$', '^src/common/error-status\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      comment: 'Two files must not import each other, directly or through others.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment: 'The folders of src/ form layers: a folder must not depend on one that depends on it (domains use database/common, never the reverse).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-not-http',
      comment: "A domain's core (services, repositories, entities, use cases…) does not know Fastify or the HTTP layer: that is the controllers' job.",
      severity: 'error',
      from: { path: `^src/${DOMAINS}/`, pathNot: HTTP_EDGE },
      to: { path: [HTTP_PACKAGES, ...HTTP_LAYER] },
    },
    {
      name: 'core-throws-domain-errors',
      comment:
        'Only the HTTP edge (controllers, guards, filters, presenters, the Fastify-facing files) knows statuses: everything else throws DomainError, whose code the edge maps to a status (common/error-status.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: [...HTTP_EDGE, ...HTTP_LAYER, ...HTTP_ERRORS] },
      to: { path: HTTP_ERRORS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Unit tests next to their source may reach across layers; they are not imported by anything.
    exclude: { path: '\\.spec\\.ts$' },
    includeOnly: ['^src/', `^node_modules/(fastify|@nestjs/platform-fastify|@fastify/)`],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Folder-level rules need the folder graph, which the metrics compute.
    metrics: true,
  },
};
