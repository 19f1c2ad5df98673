#!/usr/bin/env node
// The `site` command. React must run its production build (several times faster to render),
// and the CLI is TypeScript run through tsx's loader, so nothing has to be compiled first.
process.env.NODE_ENV ??= 'production';
const { register } = await import('tsx/esm/api');
register();
await import('../cli/main.ts');
