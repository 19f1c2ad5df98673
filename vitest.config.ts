import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Pages rendered in a test's own process (the full builds output is compared with, `site live`'s
  // builds, the render tests) run React's production build, as `site build` does (bin/site.js): the
  // development JSX runtime and server renderer took about a third more CPU per build, for checks no test
  // reads. Vite's transform picks the development runtime unless told; React picks its build by NODE_ENV.
  esbuild: { jsxDev: false },
  test: {
    env: { NODE_ENV: 'production' },
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}', 'tests/backend/**/*.test.ts'],
    // StrykerJS's sandbox copies of the repository (npm run mutation) are not this checkout's tests.
    exclude: ['**/node_modules/**', '.stryker-tmp/**'],
    environment: 'node',
    globalSetup: ['tests/global-setup.ts'],
    // The JSON report CI counts (scripts/count-tests.js) is written by `npm run test:unit` alone (package.json),
    // never by another run of a few files, such as the lint's, which runs beside the browser tests after it.
    reporters: ['default'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start real servers and write real folders; two cores do not gain from more.
    maxWorkers: 2,
  },
});
