// ESLint (flat config): eslint's and typescript-eslint's recommended rules over the sources, tests, benchmarks and scripts.
// Formatting is prettier's job (.prettierrc.json); `npm run lint` runs both.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'reports/', 'node_modules/', 'coverage/', 'test-output/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // a leading underscore marks a parameter or binding kept for its position or shape (interface methods, destructuring)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // published coefficient tables (Gauss–Kronrod nodes and weights, ziggurat constants) keep the digits of their source
    files: ['src/numerics/quadrature.ts', 'src/stats/rng.ts'],
    rules: { 'no-loss-of-precision': 'off' },
  },
  {
    // tests build malformed inputs on purpose
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // plain JavaScript files (bin, worker bootstrap, this config) run in Node
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
