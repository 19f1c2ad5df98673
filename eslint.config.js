import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'test-results/',
      'playwright-report/',
      '.site-cache/',
      '**/.*staging*/',
      '.stryker-tmp/',
      'reports/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Code shared by Node and the browser must not touch browser-only globals.
    files: ['runtime/shared/**'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'location', 'sessionStorage', 'localStorage', 'navigator'],
    },
  },
  {
    // The browser graph never reaches Node-only code (the rollup guard enforces it too); build-only
    // site modules (*.build.ts, site/build/) may use Node.
    files: ['runtime/**', 'site/**'],
    ignores: ['site/**/*.build.ts', 'site/build/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '**/cli/**', '**/backend/**'], message: 'Browser code must not import Node-only modules.' }] },
      ],
    },
  },
);
