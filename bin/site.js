#!/usr/bin/env node
// The `site` command. React must run its production build (several times faster to render). The CLI
// is TypeScript: it runs compiled once per version of the sources (compile-cli.js), or through tsx's
// loader when it cannot be compiled.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { compiledCli } from './compile-cli.js';

process.env.NODE_ENV ??= 'production';
// A build makes garbage at a high rate (every page's markup, every answer from the backend) but keeps
// little. V8's default lets the heap grow up to 4x past what survives a collection before it collects
// again; on a large machine that is over a gigabyte of garbage at 10,000 pages. Growing by 20% keeps the
// resident size near what the build really holds, for a few percent more time spent collecting.
setFlagsFromString('--heap-growing-percent=20');
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
