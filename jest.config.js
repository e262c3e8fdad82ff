/** Unit tests sit next to their source; e2e tests under test/ start the real app against real Postgres and Redis. */
// Drawn here, in jest's parent process, so every worker of this run inherits the same TEST_RUN_ID.
require('./test/support/run-id').testRunId();
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true } },
];
const ESM_ONLY = [
  'file-type',
  '@tokenizer',
  'token-types',
  '@borewit',
  'strtok3',
  'uint8array-extras', // MIME sniffing
  'content-disposition',
  'glob',
  'minimatch',
  '@isaacs',
  'brace-expansion',
  'balanced-match',
  'minipass',
  'path-scurry',
  'lru-cache', // @fastify/static (for /docs)
  'pixelmatch', // screenshot comparison (test/support/screenshot-diff.ts)
  '@tus',
  'srvx', // tus uploads
  'archiver',
  'zip-stream',
  'compress-commons',
  'crc32-stream',
  'is-stream',
  'readdir-glob', // submission archives
  'thumbhash', // image-thumbnail placeholders
];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  // Node 20 can require() these ESM-only packages, jest's module system cannot: swc turns them into CommonJS.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // file-type's exports offer only `import` conditions, which jest's CommonJS resolver does not read.
  // The e2e suites import the client package as users do ('@dropline/client'), from its source.
  moduleNameMapper: { '^file-type$': '<rootDir>/node_modules/file-type/index.js', '^@dropline/client$': '<rootDir>/client/src/index.ts' },
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
};
module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/support/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    // A module's real providers on the run's own Postgres database and Redis, below HTTP; stand-ins
    // only for what crosses the process boundary (test/services/service-test.ts, docs/testing.md).
    {
      ...common,
      displayName: 'services',
      testMatch: ['<rootDir>/test/services/**/*.service-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    // Fault tests spawn the API and worker processes and break Redis, Postgres and the processes
    // themselves (test/faults/README.md). Each file owns its databases and a private Redis.
    // Their global teardown checks the log lines of the spawned processes (test/support/log-lines.ts).
    { ...common, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'], globalTeardown: '<rootDir>/test/support/log-teardown.ts' },
  ],
};
