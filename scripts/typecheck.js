#!/usr/bin/env node
// `npm run typecheck`: each folder's TypeScript project, checked by TypeScript 7's native compiler
// (the `typescript-go` dev dependency, an alias of typescript@7): the same checks as TypeScript 5's
// `tsc` in about a sixth of the CPU time (docs/performance.md, "eighth pass"). TypeScript 5 stays the
// `typescript` package: typescript-eslint and the architecture tests use its JavaScript API, which
// TypeScript 7 does not have. Both packages name their command `tsc`: which one node_modules/.bin/tsc is
// depends on how npm linked them, so this script runs TypeScript 7's by its path, never `tsc` from the PATH
// (editors use TypeScript 5's language service either way). Every project is checked even when one before it failed; the exit status
// is non-zero when any failed. Projects given as arguments are checked instead (the script's test does).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PROJECTS = process.argv.length > 2 ? process.argv.slice(2) : ['tsconfig.json', 'cli', 'backend', 'runtime', 'runtime/shared'];
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-go/package.json')), 'bin/tsc');

const failed = PROJECTS.filter((project) => spawnSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' }).status !== 0);
if (failed.length > 0) {
  console.error(`Type errors in ${failed.join(', ')}.`);
  process.exit(1);
}
