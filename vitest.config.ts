import { defineConfig } from 'vitest/config';

/** StrykerJS's sandbox copies of the repository (npm run mutation) are not this checkout's tests. */
const EXCLUDE = ['**/node_modules/**', '.stryker-tmp/**'];
/** Unit test files that replace a module for the whole file (vi.mock): they run in a process of their own. */
const MOCKS_MODULES = ['tests/unit/architecture/client-minifier.test.ts'];

export default defineConfig({
  // Pages rendered in a test's own process (the full builds output is compared with, `site live`'s
  // builds, the render tests) run React's production build, as `site build` does (bin/site.js): the
  // development JSX runtime and server renderer took about a third more CPU per build, for checks no test
  // reads. Vite's transform picks the development runtime unless told; React picks its build by NODE_ENV.
  esbuild: { jsxDev: false },
  test: {
    env: { NODE_ENV: 'production' },
    exclude: EXCLUDE,
    projects: [
      {
        // Files of pure functions and in-process servers share a process, one file after another: a
        // process and its module imports per file were about two fifths of their CPU (docs/performance.md,
        // "sixth pass"). A file that replaces a module (vi.mock) gets a process of its own below.
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/backend/**/*.test.ts'],
          exclude: [...EXCLUDE, ...MOCKS_MODULES],
          isolate: false,
        },
      },
      {
        // Files that build, publish and serve: each in a process of its own, as the CLI's users run it.
        extends: true,
        test: { name: 'integration', include: ['tests/integration/**/*.test.{ts,tsx}', ...MOCKS_MODULES] },
      },
    ],
    environment: 'node',
    globalSetup: ['tests/global-setup.ts'],
    // The JSON report CI counts (scripts/count-tests.js) is written by `npm run test:unit` alone (package.json),
    // never by another run of a few files, such as the lint's, which runs beside it.
    reporters: ['default'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Three files at a time on two cores: an integration file often waits (on its servers, on a `site`
    // process starting, on a timer), and a third file fills that. Interleaved whole runs on this 2-core
    // machine: 312 and 338 s with three, 367 and 359 s with two (docs/performance.md, "seventh pass").
    maxWorkers: 3,
  },
});
