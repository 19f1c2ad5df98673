#!/usr/bin/env node
// The `site` command. React must run its production build (several times faster to render),
// and the CLI is TypeScript run through tsx's loader, so nothing has to be compiled first.
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

process.env.NODE_ENV ??= 'production';
// A build makes garbage at a high rate (every page's markup, every answer from the backend) but keeps
// little. V8's default lets the heap grow up to 4x past what survives a collection before it collects
// again; on a large machine that is over a gigabyte of garbage at 10,000 pages. Growing by 20% keeps the
// resident size near what the build really holds, for a few percent more time spent collecting.
setFlagsFromString('--heap-growing-percent=20');
const { register } = await import('tsx/esm/api');
// tsx would look for a tsconfig in the folder the command runs from; the project's own says how to
// compile its JSX, wherever the command is run.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../cli/main.ts');
