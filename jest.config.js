/** Unit tests sit next to their source; e2e tests under test/ start the real app against real Postgres and Redis. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true } }];
const ESM_ONLY = [
  'file-type', '@tokenizer', 'token-types', '@borewit', 'strtok3', 'uint8array-extras', // MIME sniffing
  'content-disposition', 'glob', 'minimatch', '@isaacs', 'brace-expansion', 'balanced-match', 'minipass', 'path-scurry', 'lru-cache', // @fastify/static (for /docs)
];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  // Node 20 can require() these ESM-only packages, jest's module system cannot: swc turns them into CommonJS.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // file-type's exports offer only `import` conditions, which jest's CommonJS resolver does not read.
  moduleNameMapper: { '^file-type$': '<rootDir>/node_modules/file-type/index.js' },
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
};
module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
    // Fault tests spawn the API and worker processes and break Redis, Postgres and the processes
    // themselves (test/faults/README.md). Each file owns its databases and a private Redis.
    { ...common, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'] },
  ],
};
