// Mutation testing (docs/mutation-testing.md): StrykerJS makes small changes ("mutants") to the modules
// that guard safety and correctness, and runs the fast tests that cover each. A mutant no test notices is
// a bug the suite would let through. Run with `npm run mutation` (about 18 minutes on 2 cores); it is not
// part of `npm test`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  // The vitest runner always measures coverage per test: each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  checkers: [],
  mutate: [
    // Sanitising and the URL rule, and the cache that must never keep text an older rule cleaned.
    'cli/content/sanitize.ts',
    'runtime/shared/content-rules.ts',
    'cli/content/rich-text-cache.ts',
    // Drafts and the media types the site re-hosts.
    'cli/content/drafts.ts',
    'cli/content/media-types.ts',
    // What an update in place trusts: the generator fingerprint, and the order of the in-place commit.
    'cli/build/generator-fingerprint.ts',
    'cli/output/output.ts:68-111',
    // Publish order and retention.
    'cli/publish/plan.ts',
    'cli/publish/retention.ts',
    // The reload guard, the GraphQL client (token, redirects, de-duplication) and the shard split.
    'runtime/reload-guard.ts',
    'runtime/shared/graphql.ts:55-152',
    'runtime/shared/loopback.ts',
    'runtime/shared/graphql.ts:279-285',
    'runtime/graphql-client.ts',
    'cli/build/shard.ts:17-72',
    // An indexed Kubernetes Job's shard (shardOfJob).
    'cli/config/config.ts:274-287',
  ],
  // Mutants of module-level tables and constants (MEDIA_TYPES, URL_ATTRIBUTES, CODE_DIRS, RELOAD_GUARD_MS...)
  // are "static": each needs every test file run from a fresh start, about 10 s on 2 cores, and there are
  // ~230 of them, which alone took the run past an hour. They are left out here; the tests that pin those
  // tables are named in docs/mutation-testing.md. `npx stryker run stryker.config.mjs --ignoreStatic false`
  // runs them too.
  ignoreStatic: true,
  // Two cores, shared: never more than two test processes. A mutant that makes a retry loop spin times out
  // (it counts as detected); a short timeout keeps those from taking most of the run.
  concurrency: 2,
  timeoutMS: 3000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
