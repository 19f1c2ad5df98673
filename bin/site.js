#!/usr/bin/env node
// The `site` command. React must run its production build (several times faster to render). The CLI
// is TypeScript: it runs compiled once per version of the sources (compile-cli.js), or through tsx's
// loader when it cannot be compiled.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { setHeapGrowth } from '../cli/config/heap-growth.js';
import { compiledCli } from './compile-cli.js';

// The project runs on the Node.js major that package.json's engines names, which `npm ci` installs
// (the `node` dependency) and npm puts first on the PATH of its scripts and of `npx`. Started by an
// older one (the system's, say, by `node bin/site.js`), it says so rather than half-working.
const required = Number(/^>=(\d+)/.exec(createRequire(import.meta.url)('../package.json').engines.node)[1]);
if (Number(process.versions.node.split('.')[0]) < required) {
  process.stderr.write(
    `[NodeTooOld] site runs on Node.js ${required} or newer; this is Node.js ${process.versions.node} (${process.execPath}).\n` +
      `Hint: Start it through npm (npm start, npx site <command>, npm run site -- <command>): npm runs the Node.js ${required} that npm ci installs in node_modules/.bin. Or install Node.js ${required}.\n`,
  );
  process.exit(1);
}
// The main thread's young generation, where each page's garbage dies. Node 24's V8 lets it grow to 64 MB
// (two 32 MB semi-spaces), twice Node 20's, which raised a 10,000-page build's peak memory by about half
// for no gain in time (docs/performance.md). V8 reads the cap only when the process starts, so
// `site build` replaces itself with the same command and the cap (process.execve: same process id, same
// standard streams), unless a cap was given (NODE_OPTIONS=--max-semi-space-size=N to try another). `site live`
// renders its updates in its main thread as a build does, and runs for days: uncapped, its young generation
// alone held 128 MiB of a 500 MiB process between updates.
const RENDERS_PAGES = new Set(['build', 'live']);
const YOUNG_GENERATION = '--max-semi-space-size=16';
const capGiven = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
  flag.startsWith('--max-semi-space-size'),
);
// glibc's malloc raises the size from which it maps a block of its own (and unmaps it when freed) to the
// largest block freed so far, up to 32 MB: once the build has freed a few large buffers (pages on their
// way to the page-write threads, the state and the outputs at the end), blocks up to that size come from
// its arenas, which keep the memory after they are freed. A fixed threshold keeps large blocks mapped
// and returned: at 100,000 pages the median peak was 24 MiB lower, the time the same (docs/performance.md).
// Read by glibc when the process starts, so it goes with the restart; a threshold or tunables the user
// set are left as they are, and other C libraries ignore it.
const MALLOC =
  process.env.MALLOC_MMAP_THRESHOLD_ === undefined && process.env.GLIBC_TUNABLES === undefined
    ? { MALLOC_MMAP_THRESHOLD_: String(256 * 1024) }
    : {};
if (RENDERS_PAGES.has(process.argv[2]) && !capGiven && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, YOUNG_GENERATION, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...MALLOC,
  });
}
// The cap is for the main thread, whose heap V8 has sized by now. While the flag is set, V8 also gives it
// to every worker thread and ignores the young generation the thread asks for (`resourceLimits`): a
// page-write thread would keep 32 MB of young generation for the few megabytes it uses. Unset, each
// thread has the one it asks for (cli/output/write.ts, cli/render/render-threads.ts, cli/bundle/bundle-cache.ts).
if (RENDERS_PAGES.has(process.argv[2])) setFlagsFromString('--max-semi-space-size=0');

process.env.NODE_ENV ??= 'production';
// How far the main heap grows past what survives a collection (cli/config/heap-growth.js says why).
setHeapGrowth();
// Stack traces name the TypeScript files and lines, for those who asked for them.
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);

const compiled = process.env.SITE_CLI_FROM_SOURCES ? null : await compiledCli();
if (compiled) {
  // Render threads find their compiled module beside the compiled code (cli/render/render-threads.ts).
  await import(pathToFileURL(join(compiled, 'main.js')).href);
} else {
  const { registerTsx } = await import('./from-sources.js');
  registerTsx();
  await import('../cli/main.ts');
}
