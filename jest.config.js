/** Unit tests sit next to their source; e2e tests under test/ start the real app against real Postgres and Redis. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true } }];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  // file-type and its helpers ship only ESM; let swc turn them into CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!(file-type|strtok3|token-types|peek-readable|@tokenizer|uint8array-extras|@borewit)/)'],
  moduleFileExtensions: ['ts', 'js', 'json', 'mjs'],
};
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      testTimeout: 60000,
    },
  ],
};
