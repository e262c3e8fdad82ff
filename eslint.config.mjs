// Type-aware ESLint (typescript-eslint with type information). `npm run lint` runs it with
// `prettier --check .`; formatting rules are Prettier's alone, so none are configured here.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals for plain JavaScript files (TypeScript files are checked by the compiler instead). */
const node = Object.fromEntries(
  [
    'require',
    'module',
    'exports',
    'process',
    'console',
    'Buffer',
    '__dirname',
    '__filename',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'URL',
    'fetch',
    'AbortController',
    'AbortSignal',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'client/dist/', 'generated/', 'tmp/', 'coverage/', 'bench/results/', 'node_modules/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its error: await it, or `void` it with a comment saying why.
      '@typescript-eslint/no-floating-promises': 'error',
      // `catch {}` says "a failure here changes nothing" (best-effort cleanup); other empty blocks are bugs.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `any` is confined to parsed JSON/YAML, driver rows and test response bodies; these rules
      // flag each use of such a value (about 400 findings) without finding bugs the strict
      // compiler misses. Revisit when those values get types.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // An async function without await still turns a throw into a rejection, which callers of a
      // Promise-returning interface rely on (e.g. a bad storage key rejects, never throws).
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Statuses belong to the HTTP edge: the core throws DomainError and common/error-status.ts
    // maps its code. .dependency-cruiser.cjs keeps ApiError out of the core; this keeps out the
    // names of @nestjs/common a module graph cannot see. The edge below is that file's
    // HTTP_EDGE and HTTP_LAYER: keep the two in step.
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.{controller,guard,filter,decorator,presenter,module,spec}.ts',
      'src/auth/{deferred-rate-limit,auth-context}.ts',
      'src/common/{api-error,error-response,json-body,lingering-close,multipart,multipart-errors}.ts',
      'src/contract/{operation-binding,request-validation.guard}.ts',
      'src/tus/**',
      'src/drop-page/**',
      'src/app.factory.ts',
      'src/main.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['HttpStatus', 'HttpException'],
              message: 'Throw a DomainError (src/common/domain-error.ts): the edge maps its code to a status (src/common/error-status.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript (scripts, Dredd hooks, bench, jest config): no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: node,
      sourceType: 'commonjs',
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      // CommonJS: require() is how these files import.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
  {
    // The drop page's browser script: a classic script with the browser's globals and tus-js-client's.
    files: ['src/drop-page/public/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'localStorage',
          'navigator',
          'location',
          'console',
          'setTimeout',
          'clearTimeout',
          'FormData',
          'XMLHttpRequest',
          'File',
          'Blob',
          'URL',
          'fetch',
          'tus',
          'trustedTypes',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
