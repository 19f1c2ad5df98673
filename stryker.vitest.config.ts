import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` runs against each mutant (stryker.config.mjs): the fast ones that cover
 * the mutated modules, matched by name wherever they sit under tests/. No browser tests, no built sites.
 */
const TESTS = [
  // Sanitising, the URL rule and the rich-text cache.
  'sanitize-hostile',
  'rich-text-cache',
  'sanitizer-version-url-rule',
  // Drafts and media types.
  'drafts-nested',
  'media-types-never-documents',
  // The generator fingerprint and the in-place commit.
  'generator-fingerprint',
  'generator-fingerprint-code',
  'output-in-place',
  'in-place-commit-order',
  // Publish order and retention (against s3rver on 127.0.0.1).
  'publish-plan',
  // The reload guard, the GraphQL client and the shard split.
  'reload-guard',
  'graphql',
  'graphql-dedupe-token',
  'graphql-token-safety',
  'graphql-client',
  'shard',
  'shard-option',
];

export default defineConfig({
  test: {
    include: [`tests/{unit,integration}/**/{${TESTS.join(',')}}.test.{ts,tsx}`],
    environment: 'node',
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
